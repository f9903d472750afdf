import type { FusionWeights, LegScore } from '../types.js';

/*
 * The weights fusion (fuse.ts) uses for one query, pure: alpha by the namespace's size
 * (store-size.ts counts it), moved by each leg's confidence on this query, and the heads the
 * agreement bonus compares. Every result's explanation shows them (`weights`).
 */

export interface StoreAwareSettings {
  alpha: number;
  alphaLarge: number | null;
  smallStore: number;
  largeStore: number;
  confidence: number;
  agreement: number;
}

/** A leg's head: the results its confidence and the agreement between legs look at. */
export const LEG_HEAD = 10;
const ALPHA_FLOOR = 0.05;

/**
 * Alpha for a namespace of `memories`: `alpha` up to `smallStore` memories, `alphaLarge` from
 * `largeStore` on, interpolated on log(memories) between (vector search loses more than BM25 as a
 * store grows). Unchanged without `alphaLarge` or without a count.
 */
export function alphaForSize(settings: StoreAwareSettings, memories: number | null): number {
  if (settings.alphaLarge === null || memories === null || !(settings.largeStore > settings.smallStore)) return settings.alpha;
  const t =
    (Math.log(Math.max(1, memories)) - Math.log(settings.smallStore)) / (Math.log(settings.largeStore) - Math.log(settings.smallStore));
  const clamped = Math.min(1, Math.max(0, t));
  return settings.alpha + clamped * (settings.alphaLarge - settings.alpha);
}

/**
 * How sure a leg is on this query: its top score's lead over the last of its head, in its own
 * standard deviations over everything it returned (a leg whose best hit stands out is sure; a flat
 * one is not). 0 with fewer than two results.
 */
export function legLead(raws: readonly number[]): number {
  if (raws.length < 2) return 0;
  const sorted = [...raws].sort((a, b) => b - a);
  const mean = sorted.reduce((a, b) => a + b, 0) / sorted.length;
  const sd = Math.sqrt(sorted.reduce((a, b) => a + (b - mean) ** 2, 0) / sorted.length);
  if (!(sd > 0)) return 0;
  return (sorted[0]! - sorted[Math.min(LEG_HEAD, sorted.length) - 1]!) / sd;
}

/**
 * The vector weight for this query: the store-size alpha, moved toward the leg that is surer of
 * its head by `confidence` × (lead_v − lead_t) / (lead_v + lead_t), kept in [0.05, 0.95]. Without
 * `confidence`, or when a leg is silent, the store-size alpha as it is.
 */
export function queryAlpha(
  settings: StoreAwareSettings,
  memories: number | null,
  vectorRaws: readonly number[],
  textRaws: readonly number[],
): number {
  const sized = alphaForSize(settings, memories);
  if (settings.confidence === 0 || vectorRaws.length === 0 || textRaws.length === 0) return sized;
  const v = legLead(vectorRaws);
  const t = legLead(textRaws);
  if (v + t <= 0) return sized;
  const moved = sized + settings.confidence * ((v - t) / (v + t));
  return Math.min(1 - ALPHA_FLOOR, Math.max(ALPHA_FLOOR, moved));
}

/** The memory ids in the first LEG_HEAD of a leg, by its raw score (ties in input order). */
export function headOf(scores: ReadonlyArray<LegScore | undefined>): Set<number> {
  return new Set(
    scores
      .map((s, i) => ({ s, i }))
      .filter((e): e is { s: LegScore; i: number } => e.s !== undefined)
      .sort((a, b) => b.s.raw - a.s.raw)
      .slice(0, LEG_HEAD)
      .map((e) => e.i),
  );
}
