import type { z } from 'zod/v3';
import { flag, fraction, section } from '../settings/fields.js';

export const importanceSettings = section({
  enabled: flag().default(true).describe('importance factor: low importance lowers rank'),
  weight: fraction().default(0.2).describe('low importance lowers rank: factor 1 − weight + weight × importance'),
});
export type ImportanceSettings = z.output<typeof importanceSettings>;

/**
 * The importance factor (pure; a penalty, rank.ts): `1 − weight + weight × importance` — importance 1
 * keeps the score, 0 lowers it by `weight`. Explains `importance`.
 */
export function importanceFactor(importance: number, settings: ImportanceSettings): number {
  if (!settings.enabled || !Number.isFinite(importance)) return 1;
  return 1 - settings.weight + settings.weight * Math.min(1, Math.max(0, importance));
}
