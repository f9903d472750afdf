import * as chrono from 'chrono-node';
import type { z } from 'zod/v3';
import { flag, num, section } from '../settings/fields.js';

export const timeSettings = section({
  enabled: flag().default(true).describe('time factor: memories in the past period the question names rank higher'),
  boost: num({ min: 0, max: 5 })
    .default(0.3)
    .describe('memories whose event time lies in the past period the question names ("last Saturday") gain factor 1 + boost'),
});
export type TimeSettings = z.output<typeof timeSettings>;

const DAY_MS = 86_400_000;
/** Only the start of a question is parsed for time expressions: chrono is not proven linear. */
export const MAX_TIME_QUERY_CHARS = 400;

export interface TimeWindow {
  /** Inclusive bounds, epoch ms. */
  start: number;
  end: number;
  /** The expression the window came from ("last Saturday", "two weeks ago", "in March"). */
  text: string;
}

/**
 * The past period a question points at, resolved against the time it is asked (`asOf`) with
 * chrono: "last Saturday" → that day, "two weeks ago" → that week, "in March" / "last month" →
 * that month, "the past two months" → up to asOf. Expressions about the present or the future
 * ("tonight", "next week") point at nothing a memory could hold yet and give no window.
 */
export function queryTimeWindow(query: string, asOf: Date): TimeWindow | null {
  const now = asOf.getTime();
  const results = chrono.en.parse(query.slice(0, MAX_TIME_QUERY_CHARS), asOf, { forwardDate: false });
  for (const result of results) {
    const text = result.text.toLowerCase();
    const at = result.start.date().getTime();
    if (!Number.isFinite(at) || at > now - DAY_MS / 2) continue;
    const window = widen(result, text, at, now);
    if (window) return { ...window, text: result.text };
  }
  return null;
}

function widen(result: chrono.ParsedResult, text: string, at: number, now: number): { start: number; end: number } | null {
  if (result.end) return { start: startOfDay(at), end: endOfDay(result.end.date().getTime()) };
  // "the past two months", "in the last 3 months", "this year": from then until the question.
  if (/\b(?:past|last)\s+(?:\w+\s+)?(?:months|weeks|years)\b|\bthis (?:month|year|week)\b/.test(text))
    return { start: startOfDay(at), end: now };
  // "two weeks ago", "last week": approximate, so a week around the day.
  if (/\bweeks?\b/.test(text)) return { start: startOfDay(at - 3 * DAY_MS), end: endOfDay(at + 3 * DAY_MS) };
  if (result.start.isCertain('day') || result.start.isCertain('weekday'))
    return { start: startOfDay(at - DAY_MS), end: endOfDay(at + DAY_MS) };
  if (result.start.isCertain('month')) {
    const d = new Date(at);
    return { start: Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1), end: Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1) - 1 };
  }
  return null;
}

function startOfDay(ms: number): number {
  return ms - (((ms % DAY_MS) + DAY_MS) % DAY_MS);
}

function endOfDay(ms: number): number {
  return startOfDay(ms) + DAY_MS - 1;
}

/**
 * The time factor (pure; a bonus, rank.ts): `1 + boost` for a memory whose event time lies in the window
 * the question names, 1 otherwise (or without a window). Explains `time`.
 */
export function timeFactor(occurredAt: string | null | undefined, window: TimeWindow | null, boost: number): number {
  if (!window || !occurredAt) return 1;
  const t = Date.parse(occurredAt);
  return Number.isFinite(t) && t >= window.start && t <= window.end ? 1 + boost : 1;
}
