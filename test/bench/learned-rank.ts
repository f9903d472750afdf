import type { RankedCandidate, ScoreExplanation } from '../../src/recall/types.js';

/**
 * The learned ranking, an offline experiment (it was a recall stage, off by default, and was
 * removed from the service when leave-one-family-out cost LoCoMo; docs/recall-quality.md): a
 * logistic model over what the pipeline already computed for each result (its score explanation
 * and its place in the ranking) re-scores the head of the ranking. Only features the service
 * computes at recall time; nothing keyed on a dataset, a speaker or a question category. The
 * model lives in learned-rank-weights.ts; learn-ranking.ts fits it from `bench:locomo --features`.
 */
export const LEARNED_RANK_FEATURES = [
  'vector',
  'vectorRank',
  'keyword',
  'keywordRank',
  'hint',
  'hintRank',
  'entity',
  'entityRank',
  'fused',
  'graphBoost',
  'context',
  'time',
  'resolution',
  'importance',
  'similarity',
  'final',
  'position',
] as const;

export type LearnedRankFeature = (typeof LEARNED_RANK_FEATURES)[number];

/** One feature's part of the model: the input standardized as (x − mean) / scale, times weight. */
export interface FeatureWeight {
  mean: number;
  scale: number;
  weight: number;
}

export interface LearnedRankModel {
  intercept: number;
  weights: Record<LearnedRankFeature, FeatureWeight>;
}

/**
 * The features of each result of `head` (the ranking's first results, best first), in
 * LEARNED_RANK_FEATURES order:
 * - per leg (vector, keyword, hint, entity): its normalized score and 1 / its rank (0 when the leg did not return it);
 * - the pipeline's own numbers: fused score, graph boost, context gain, the time, resolution, hub,
 *   importance factors, the similarity to the question ((1 + cos) / 2, 0 without one);
 * - final: the result's final score relative to the head's best; position: 1 / its place in the head.
 */
export function learnedRankFeatures(head: readonly RankedCandidate[]): number[][] {
  const best = Math.max(0, ...head.map((r) => r.explanation.final).filter(Number.isFinite));
  return head.map(({ explanation: e }, i) => {
    const values: Record<LearnedRankFeature, number> = {
      vector: e.vector?.normalized ?? 0,
      vectorRank: reciprocal(e.vector),
      keyword: e.keyword?.normalized ?? 0,
      keywordRank: reciprocal(e.keyword),
      hint: e.hint?.normalized ?? 0,
      hintRank: reciprocal(e.hint),
      entity: e.entity?.normalized ?? 0,
      entityRank: reciprocal(e.entity),
      fused: e.fused,
      graphBoost: e.graphBoost,
      context: e.context,
      time: e.time,
      resolution: e.resolution,
      importance: e.importance,
      similarity: e.similarity ?? 0,
      final: best > 0 && Number.isFinite(e.final) ? e.final / best : 0,
      position: 1 / (i + 1),
    };
    return LEARNED_RANK_FEATURES.map((name) => (Number.isFinite(values[name]) ? values[name] : 0));
  });
}

/** The model's logit for one feature vector (LEARNED_RANK_FEATURES order). */
export function learnedLogit(features: readonly number[], model: LearnedRankModel): number {
  let logit = model.intercept;
  LEARNED_RANK_FEATURES.forEach((name, i) => {
    const { mean, scale, weight } = model.weights[name];
    logit += (weight * ((features[i] ?? 0) - mean)) / (scale || 1);
  });
  return logit;
}

/**
 * Re-scores the first `topN` results with the model and orders them by it (ties keep their
 * order); the rest follow untouched. Re-scored results carry the model's probability as
 * `score` and `explanation.final`. Never adds or removes a result.
 */
export function applyLearnedRank(ranked: readonly RankedCandidate[], model: LearnedRankModel, topN: number): RankedCandidate[] {
  const head = ranked.slice(0, Math.max(0, topN));
  if (head.length < 2) return [...ranked];
  const features = learnedRankFeatures(head);
  const rescored = head
    .map((item, index) => ({ item, index, learned: sigmoid(learnedLogit(features[index]!, model)) }))
    .sort((a, b) => b.learned - a.learned || a.index - b.index)
    .map(({ item, learned }) => ({
      candidate: item.candidate,
      score: learned,
      explanation: { ...item.explanation, final: learned },
    }));
  return [...rescored, ...ranked.slice(head.length)];
}

function reciprocal(leg: ScoreExplanation['vector']): number {
  return leg && leg.rank >= 1 ? 1 / leg.rank : 0;
}

function sigmoid(x: number): number {
  return 1 / (1 + Math.exp(-x));
}
