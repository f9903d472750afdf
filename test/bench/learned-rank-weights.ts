import type { LearnedRankModel } from './learned-rank.js';

/**
 * The learned ranking's weights (learned-rank.ts, an offline experiment), written by
 * test/bench/learn-ranking.ts: a logistic model fitted on every question of the datasets below
 * (label: the result holds an evidence turn), each feature standardized as (x − mean) / scale;
 * a weight is the effect of one standard deviation on the logit. `heldOut`: recall@5 / @10 and
 * MRR of the default order and of the learned order on questions the model was not fitted on
 * (docs/recall-quality.md, "A ranking learned across families"). The stage is on by default only
 * where leave-one-family-out gains on every family.
 */
export const LEARNED_RANK_FITTED_ON = {
  datasets: [
    {
      name: 'locomo',
      questions: 760,
    },
    {
      name: 'longmemeval-dev',
      questions: 272,
    },
  ],
  questions: 1032,
  candidates: 50255,
  lambda: 1,
  pipeline:
    'the default settings before 2026-11-27: validity, gravity and hub dampening and the graph boost on (they are off by default since; refit on the defaults in force before turning the stage on)',
  command:
    'npm run bench:locomo -- <LoCoMo dev> <LongMemEval dev> --features <file>; npm run learn:ranking -- <file> --lambda 1 --write test/bench/learned-rank-weights.ts',
  date: '2026-11-27',
  heldOut: {
    locomo: {
      default: {
        'recall@5': 0.624,
        'recall@10': 0.739,
        mrr: 0.522,
        questions: 760,
      },
      leaveOneFamilyOut: {
        'recall@5': 0.566,
        'recall@10': 0.663,
        mrr: 0.491,
        questions: 760,
      },
      withinFamilyFolds: {
        'recall@5': 0.628,
        'recall@10': 0.739,
        mrr: 0.535,
        questions: 760,
      },
      foldsOverAllFamilies: {
        'recall@5': 0.628,
        'recall@10': 0.729,
        mrr: 0.533,
        questions: 760,
      },
    },
    'longmemeval-dev': {
      default: {
        'recall@5': 0.87,
        'recall@10': 0.944,
        mrr: 0.74,
        questions: 272,
      },
      leaveOneFamilyOut: {
        'recall@5': 0.877,
        'recall@10': 0.952,
        mrr: 0.785,
        questions: 272,
      },
      withinFamilyFolds: {
        'recall@5': 0.886,
        'recall@10': 0.947,
        mrr: 0.801,
        questions: 272,
      },
      foldsOverAllFamilies: {
        'recall@5': 0.884,
        'recall@10': 0.95,
        mrr: 0.779,
        questions: 272,
      },
    },
  },
  leaveOneFamilyOutGainsOnEveryFamily: false,
} as const;

export const LEARNED_RANK_MODEL: LearnedRankModel = {
  intercept: -5.022243,
  weights: {
    vector: { mean: 0.450504, scale: 0.332812, weight: 0.299831 },
    vectorRank: { mean: 0.071867, scale: 0.160104, weight: 0.112099 },
    keyword: { mean: 0.178756, scale: 0.247795, weight: 0.437393 },
    keywordRank: { mean: 0.073649, scale: 0.162543, weight: 0.154973 },
    hint: { mean: 0, scale: 1, weight: 0 },
    hintRank: { mean: 0, scale: 1, weight: 0 },
    entity: { mean: 0.010345, scale: 0.096132, weight: 0.064697 },
    entityRank: { mean: 0.006177, scale: 0.066466, weight: -0.004375 },
    fused: { mean: 0.213012, scale: 0.231505, weight: -0.299507 },
    graphBoost: { mean: 0.049299, scale: 0.049831, weight: -0.082853 },
    context: { mean: 0.078766, scale: 0.094526, weight: -0.046715 },
    time: { mean: 1.006919, scale: 0.04503, weight: 0.153049 },
    resolution: { mean: 1.003104, scale: 0.0214, weight: 0.052308 },
    importance: { mean: 0.86262, scale: 0.034891, weight: 0.500301 },
    similarity: { mean: 0.66747, scale: 0.081162, weight: -0.031727 },
    final: { mean: 0.348348, scale: 0.239836, weight: 1.173273 },
    position: { mean: 0.091542, scale: 0.157983, weight: -0.001498 },
  },
};
