import type { z } from 'zod/v3';
import {
  FUSION_METHODS,
  type FusionMethod,
  type FusionWeights,
  type LegExplanation,
  type LegScore,
  type RecallCandidate,
} from '../types.js';
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
  /** The weights this query used (the same for every candidate). */
  weights: FusionWeights;
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

  // Keyword and hint BM25 share one scale: their raw scores merge by max (a hint lifts, never stacks).
  const texts = keywords.map((k, i) => bestScore(k, hints[i]));
  const textRaws = [...keywords, ...hints].filter((s): s is LegScore => s !== undefined).map((s) => s.raw);
  const normalizeText = textNormalizer(textRaws, fusion.keywordNormalization);
  const vectorRaws = vectors.filter((s): s is LegScore => s !== undefined).map((s) => s.raw);
  const weights: FusionWeights = {
    vector: fusion.alpha,
    text: 1 - fusion.alpha,
    entity: legs.entity && entityMax > 0 ? fusion.entityWeight : 0,
  };
  const score = scorer(fusion, weights, { vectorRaws, textRaws, vectorActive: vectorRaws.length > 0 });

  const fused = candidates.map((candidate, i) => {
    const vector = explain(vectors[i], (raw) => clamp01(raw));
    const keyword = explain(keywords[i], normalizeText);
    const hint = explain(hints[i], normalizeText);
    const entity = explain(entities[i], (raw) => clamp01(raw / entityMax));
    const f = score({ vector, keyword, hint, vectorRaw: vectors[i]?.raw, textRaw: texts[i]?.raw });
    return { candidate, weights, fused: f, method: fusion.method, vector, keyword, hint, entity };
  });
  // The entity leg's score (relative to this query's best) joins every method's [0, 1] result
  // with its weight, and the sum is scaled back into [0, 1].
  const scaled = fusion.method === 'zscore' ? minMax(fused) : fused;
  if (weights.entity === 0) return scaled;
  return scaled.map((f) => ({ ...f, fused: (f.fused + weights.entity * (f.entity?.normalized ?? 0)) / (1 + weights.entity) }));
}

interface ScoreInput {
  vector: LegExplanation | null;
  keyword: LegExplanation | null;
  hint: LegExplanation | null;
  vectorRaw: number | undefined;
  textRaw: number | undefined;
}

/** One candidate's fused score (before the min-max of zscore) under the method and this query's weights. */
function scorer(
  fusion: FusionSettings,
  weights: FusionWeights,
  legs: { vectorRaws: readonly number[]; textRaws: readonly number[]; vectorActive: boolean },
): (input: ScoreInput) => number {
  const textActive = legs.textRaws.length > 0;
  if (fusion.method === 'zscore') {
    const zVector = standardizer(legs.vectorRaws);
    const zText = standardizer(legs.textRaws);
    return ({ vectorRaw, textRaw }) =>
      weights.vector * (vectorRaw !== undefined ? zVector.z(vectorRaw) : zVector.lowest) +
      weights.text * (textRaw !== undefined ? zText.z(textRaw) : zText.lowest);
  }
  if (fusion.method === 'rrf') {
    const rrfMax = ((legs.vectorActive ? 1 : 0) + (textActive ? 1 : 0)) / (fusion.rrfK + 1);
    const rrf = (leg: LegExplanation | null) => (leg ? 1 / (fusion.rrfK + leg.rank) : 0);
    return ({ vector, keyword, hint }) => (rrfMax > 0 ? (rrf(vector) + Math.max(rrf(keyword), rrf(hint))) / rrfMax : 0);
  }
  return ({ vector, keyword, hint }) => {
    const text = best(keyword, hint);
    if (vector && text) return weights.vector * vector.normalized + weights.text * text.normalized;
    if (fusion.missingLeg === 'zero' && legs.vectorActive && textActive) {
      return vector ? weights.vector * vector.normalized : text ? weights.text * text.normalized : 0;
    }
    return vector?.normalized ?? text?.normalized ?? 0;
  };
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

function bestScore(a: LegScore | undefined, b: LegScore | undefined): LegScore | undefined {
  if (!a) return b;
  if (!b) return a;
  return b.raw > a.raw ? b : a;
}

function best(a: LegExplanation | null, b: LegExplanation | null): LegExplanation | null {
  if (!a) return b;
  if (!b) return a;
  return b.normalized > a.normalized ? b : a;
}

function clamp01(value: number): number {
  return Math.min(1, Math.max(0, value));
}
