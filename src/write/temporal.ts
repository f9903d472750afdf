import { parseExpiry } from '../text/index.js';

/**
 * Persistent vs temporal without an LLM: time-bound wording makes a memory temporal (durable
 * facts, preferences and rules stay persistent); an explicit "until <ISO date>", or a relative
 * phrase read against when it happened, gives its validUntil. Expired memories rank lower, never
 * deleted.
 */
const TIME_BOUND =
  /\b(today|tonight|tomorrow|this (morning|afternoon|evening|week|weekend|month|sprint)|next (week|month|monday|tuesday|wednesday|thursday|friday|saturday|sunday)|until|through (monday|tuesday|wednesday|thursday|friday|saturday|sunday)|at \d{1,2}(:\d{2})?\s?(am|pm)|for now|temporarily|on-call)\b/i;
const UNTIL_ISO_DATE = /\buntil\s+(\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2})?Z?)?)/i;

export interface TemporalClassification {
  temporal: 'persistent' | 'temporal';
  validUntil: string | null;
}

/**
 * `reference` is when the memory happened (occurredAt; now when unknown): relative phrases
 * ("tomorrow", "at 3pm", "through Friday") end against it (src/sessions/expiry.ts).
 */
export function classifyTemporal(text: string, reference: Date | string | null = null): TemporalClassification {
  if (!TIME_BOUND.test(text)) return { temporal: 'persistent', validUntil: null };
  const until = UNTIL_ISO_DATE.exec(text)?.[1];
  const parsed = until ? new Date(until.includes('T') || until.includes(' ') ? until : `${until}T23:59:59Z`) : null;
  if (parsed && !Number.isNaN(parsed.getTime())) return { temporal: 'temporal', validUntil: parsed.toISOString() };
  return { temporal: 'temporal', validUntil: parseExpiry(text, reference ? new Date(reference) : new Date()) };
}
