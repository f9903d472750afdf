import type { z } from 'zod/v3';
import { FUSION_METHODS, type FusionMethod, type LegExplanation, type LegScore, type RecallCandidate } from '../types.js';
import { fraction, num, oneOf, section } from '../settings/fields.js';
import type { LegsSettings } from './retrieve.js';

export const fusionSettings = section({
  method: oneOf(FUSION_METHODS).default('zscore'),
  alpha: fraction().default(0.6).describe('weight of the vector score in weighted fusion; 1 − alpha goes to keyword/hints'),
  rrfK: num({ min: 0 }).default(60).describe('RRF rank constant k (ranks)'),
  keywordNormalization: oneOf(['max', 'minmax']).default('minmax'),
  missingLeg: oneOf(['single', 'zero'])
    .default('zero')
    .describe('what weighted fusion does when a candidate has only one leg score: use it alone, or count the other as 0'),
  entityWeight: fraction()
    .default(0.2)
    .describe(
      'weight of the entity leg: its normalized score times this is added to the fused score (docs/entities.md, typed entities in recall)',
    ),
});
export type FusionSettings = z.output<typeof fusionSettings>;
export type KeywordNormalization = FusionSettings['keywordNormalization'];
/** What weighted fusion does when a candidate has only one leg score: use it alone, or count the other as 0. */
export type MissingLegPolicy = FusionSettings['missingLeg'];

export interface FusedCandidate {
  candidate: RecallCandidate;
  /** In [0, 1] for both methods. */
  fused: number;
  method: FusionMethod;
  vector: LegExplanation | null;
  keyword: LegExplanation | null;
  hint: LegExplanation | null;
  entity: LegExplanation | null;
}

/**
 * Fusion (pure; haystack's joiner: one component with a mode). Combines each candidate's leg scores into one score in [0, 1], in input order. Legs switched
 * off in `settings.legs` are ignored even when a candidate carries their score.
 *
 * - weighted: alpha × vector + (1 − alpha) × text, where text = max(keyword, hint) after per-query
 *   normalization (hint matches lift a memory but never stack with its content match). A
 *   candidate with only one of the two uses that score alone (`missingLeg: 'single'`)
 *   or counts the other as 0 (`'zero'`) when that leg returned anything in this query.
 * - rrf: Σ 1 / (k + rank) over vector and text (text takes the better of keyword and hint rank),
 *   divided by its best possible value so that additive boosts mean the same for both methods.
 * - zscore: each leg's raw scores standardized over that leg's own results in this query (a
 *   leg that is sure of its top hit stands out; a flat leg does not), alpha × z(vector) +
 *   (1 − alpha) × z(text), a leg that did not return the candidate counting as its lowest z;
 *   then min-max over the candidates so the result is in [0, 1] like the other methods.
 */
export function fuseScores(
  candidates: readonly RecallCandidate[],
  settings: { legs: LegsSettings; fusion: FusionSettings },
): FusedCandidate[] {
  const { legs, fusion } = settings;
  const vectors = candidates.map((c) => (legs.vector ? usable(c.vector) : undefined));
  const keywords = candidates.map((c) => (legs.keyword ? usable(c.keyword) : undefined));
  const hints = candidates.map((c) => (legs.hints ? usable(c.hint) : undefined));
  const entities = candidates.map((c) => (legs.entity ? usable(c.entity) : undefined));
  const entityMax = Math.max(0, ...entities.map((s) => s?.raw ?? 0));
  const entityWeight = legs.entity && entityMax > 0 ? fusion.entityWeight : 0;

  // Keyword and hint BM25 share one scale: their raw scores merge by max (a hint lifts, never stacks).
  const textRaws = [...keywords, ...hints].filter((s): s is LegScore => s !== undefined).map((s) => s.raw);
  const normalizeText = textNormalizer(textRaws, fusion.keywordNormalization);
  const vectorActive = vectors.some((s) => s !== undefined);
  const textActive = textRaws.length > 0;
  const rrfMax = ((vectorActive ? 1 : 0) + (textActive ? 1 : 0)) / (fusion.rrfK + 1);

  const zVector = standardizer(vectors.filter((s): s is LegScore => s !== undefined).map((s) => s.raw));
  const zText = standardizer(textRaws);

  const fused = candidates.map((candidate, i) => {
    const vector = explain(vectors[i], (raw) => clamp01(raw));
    const keyword = explain(keywords[i], normalizeText);
    const hint = explain(hints[i], normalizeText);
    const text = best(keyword, hint);
    const entity = explain(entities[i], (raw) => clamp01(raw / entityMax));

    let fused: number;
    if (fusion.method === 'zscore') {
      const zt = Math.max(keywords[i] ? zText.z(keywords[i]!.raw) : -Infinity, hints[i] ? zText.z(hints[i]!.raw) : -Infinity);
      fused =
        fusion.alpha * (vectors[i] ? zVector.z(vectors[i]!.raw) : zVector.lowest) +
        (1 - fusion.alpha) * (Number.isFinite(zt) ? zt : zText.lowest);
    } else if (fusion.method === 'rrf') {
      const rrf = (leg: LegExplanation | null) => (leg ? 1 / (fusion.rrfK + leg.rank) : 0);
      const textRrf = Math.max(rrf(keyword), rrf(hint));
      fused = rrfMax > 0 ? (rrf(vector) + textRrf) / rrfMax : 0;
    } else if (vector && text) {
      fused = fusion.alpha * vector.normalized + (1 - fusion.alpha) * text.normalized;
    } else if (fusion.missingLeg === 'zero' && vectorActive && textActive) {
      fused = vector ? fusion.alpha * vector.normalized : text ? (1 - fusion.alpha) * text.normalized : 0;
    } else {
      fused = vector?.normalized ?? text?.normalized ?? 0;
    }
    return { candidate, fused, method: fusion.method, vector, keyword, hint, entity };
  });
  // The entity leg's score (relative to this query's best) joins every method's [0, 1] result
  // with weight `entityWeight`, and the sum is scaled back into [0, 1].
  const scaled = fusion.method === 'zscore' ? minMax(fused) : fused;
  if (entityWeight === 0) return scaled;
  return scaled.map((f) => ({ ...f, fused: (f.fused + entityWeight * (f.entity?.normalized ?? 0)) / (1 + entityWeight) }));
}

/** z-scores over one leg's results; an empty leg contributes 0 everywhere. */
function standardizer(raws: readonly number[]): { z: (raw: number) => number; lowest: number } {
  if (raws.length === 0) return { z: () => 0, lowest: 0 };
  const mean = raws.reduce((a, b) => a + b, 0) / raws.length;
  const sd = Math.sqrt(raws.reduce((a, b) => a + (b - mean) ** 2, 0) / raws.length) || 1;
  const z = (raw: number) => (raw - mean) / sd;
  return { z, lowest: z(Math.min(...raws)) };
}

function minMax(items: FusedCandidate[]): FusedCandidate[] {
  const values = items.map((i) => i.fused);
  const lo = Math.min(...values);
  const hi = Math.max(...values);
  return items.map((i) => ({ ...i, fused: hi > lo ? (i.fused - lo) / (hi - lo) : 1 }));
}

/** Maps a raw BM25 score to [0, 1] for this query's result set. */
export function textNormalizer(raws: readonly number[], method: KeywordNormalization): (raw: number) => number {
  if (raws.length === 0) return () => 0;
  const max = Math.max(...raws);
  if (method === 'max') return (raw) => (max > 0 ? clamp01(raw / max) : 0);
  const min = Math.min(...raws);
  return (raw) => (max > min ? clamp01((raw - min) / (max - min)) : 1);
}

function usable(score: LegScore | undefined): LegScore | undefined {
  return score && Number.isFinite(score.raw) && Number.isFinite(score.rank) && score.rank >= 1 ? score : undefined;
}

function explain(score: LegScore | undefined, normalize: (raw: number) => number): LegExplanation | null {
  return score ? { raw: score.raw, normalized: normalize(score.raw), rank: score.rank } : null;
}

function best(a: LegExplanation | null, b: LegExplanation | null): LegExplanation | null {
  if (!a) return b;
  if (!b) return a;
  return b.normalized > a.normalized ? b : a;
}

function clamp01(value: number): number {
  return Math.min(1, Math.max(0, value));
}
