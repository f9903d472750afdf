import type { RecallSettings } from './settings/index.js';

const MS_PER_DAY = 86_400_000;

export type RecencySettings = Pick<RecallSettings['recency'], 'halfLifeDays' | 'weight'>;

/**
 * Multiplicative recency factor `1 − weight + weight × 0.5^(age / halfLife)`: 1 for a memory from
 * `now`, tending to 1 − weight for old ones. Age is measured from occurredAt (event time), else
 * createdAt; a future time, or no parsable time at all, counts as age 0 (no penalty).
 */
export function recencyFactor(memory: { occurredAt: string | null; createdAt: string }, now: Date, settings: RecencySettings): number {
  const age = ageInDays(memory, now);
  return 1 - settings.weight + settings.weight * 0.5 ** (age / settings.halfLifeDays);
}

export function ageInDays(memory: { occurredAt: string | null; createdAt: string }, now: Date): number {
  const times = [memory.occurredAt, memory.createdAt].map((iso) => (iso === null ? Number.NaN : Date.parse(iso)));
  const time = times.find((t) => Number.isFinite(t));
  if (time === undefined) return 0;
  return Math.max(0, (now.getTime() - time) / MS_PER_DAY);
}
