/**
 * Persistent vs temporal (seed 001 §5) without an LLM: time-bound wording makes a memory
 * temporal; an explicit "until <ISO date>" also gives its validUntil.
 */
const TIME_BOUND = /\b(today|tonight|tomorrow|this (morning|afternoon|evening|week|weekend|month|sprint)|next (week|month|monday|tuesday|wednesday|thursday|friday|saturday|sunday)|until|through (monday|tuesday|wednesday|thursday|friday|saturday|sunday)|at \d{1,2}(:\d{2})?\s?(am|pm)|for now|temporarily|on-call)\b/i;
const UNTIL_ISO_DATE = /\buntil\s+(\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2})?Z?)?)/i;

export interface TemporalClassification {
  temporal: 'persistent' | 'temporal';
  validUntil: string | null;
}

export function classifyTemporal(text: string): TemporalClassification {
  if (!TIME_BOUND.test(text)) return { temporal: 'persistent', validUntil: null };
  const until = UNTIL_ISO_DATE.exec(text)?.[1];
  const parsed = until ? new Date(until.includes('T') || until.includes(' ') ? until : `${until}T23:59:59Z`) : null;
  return { temporal: 'temporal', validUntil: parsed && !Number.isNaN(parsed.getTime()) ? parsed.toISOString() : null };
}
