import type { z } from 'zod/v3';
import { flag, num, section } from '../settings/fields.js';
import type { RecallCandidate } from '../types.js';

export const resolutionSettings = section({
  enabled: flag().default(true).describe('resolution factor: constraints, decisions and dated memories rank higher'),
  boost: num({ min: 1 }).default(1.2).describe('factor on constraints and decisions (half the excess for a memory with a date)'),
  minContentChars: num({ min: 0 }).default(50).describe('characters of content a memory needs for the resolution boost'),
});
export type ResolutionSettings = z.output<typeof resolutionSettings>;

const ISO_DATE = /\b\d{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01])\b/;
const MONTH_NAME = /\b(?:january|february|march|april|june|july|august|september|october|november|december)\b/i;
// "May" only capitalized and next to a number, so the modal verb is not a date.
const MAY_DATE = /\bMay\s+\d|\d(?:st|nd|rd|th)?\s+May\b/;

/**
 * The resolution factor (pure; a bonus, rank.ts): rewards specific, actionable memories — constraints
 * and decisions get `boost`, other memories with a temporal anchor (ISO date or month name) half
 * of it; content shorter than `minContentChars` gets nothing. Explains `resolution`.
 */
export function resolutionFactor(candidate: RecallCandidate, settings: ResolutionSettings): number {
  if (!settings.enabled) return 1;
  if (candidate.content.trim().length < settings.minContentChars) return 1;
  if (candidate.isConstraint || candidate.type === 'decision' || candidate.type === 'constraint') return settings.boost;
  if (hasTemporalAnchor(candidate.content)) return 1 + (settings.boost - 1) * 0.5;
  return 1;
}

export function hasTemporalAnchor(text: string): boolean {
  return ISO_DATE.test(text) || MONTH_NAME.test(text) || MAY_DATE.test(text);
}
