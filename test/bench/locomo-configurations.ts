import type { RecallRecipeName, RecallSettingsOverrides } from '../../src/recall/index.js';

export interface Configuration {
  recipe: RecallRecipeName;
  overrides: RecallSettingsOverrides;
}

/**
 * Reported, never chosen by cross-validation: the leg baselines, and the learned ranking (its
 * weights were fitted on these same questions: in sample; learn-ranking.ts holds it out itself).
 */
export const TUNING_BASELINES: readonly string[] = ['vector', 'keyword', 'full learned rank'];

/** The three required columns, and (with --variants) the alternatives the defaults were chosen against. */
export function loadConfigurations(withVariants: boolean): Record<string, Configuration> {
  const base: Record<string, Configuration> = {
    full: { recipe: 'default', overrides: {} },
    vector: { recipe: 'vectorOnly', overrides: {} },
    keyword: { recipe: 'keywordOnly', overrides: {} },
  };
  if (!withVariants) return base;
  return {
    ...base,
    'full previous defaults (weighted α 0.25 and ungated context)': {
      recipe: 'default',
      overrides: { fusion: { method: 'weighted', alpha: 0.25 }, context: { similarityGate: false } },
    },
    // The keyword leg's reading in context (off by default; docs/recall-quality.md).
    'keyword turn and context': { recipe: 'keywordOnly', overrides: { keywordContext: { enabled: true } } },
    'keyword in context only': { recipe: 'keywordOnly', overrides: { keywordContext: { enabled: true, weight: 1 } } },
    'full keyword context': { recipe: 'default', overrides: { keywordContext: { enabled: true } } },
    'full keyword context 0.3': { recipe: 'default', overrides: { keywordContext: { enabled: true, weight: 0.3 } } },
    'full keyword context 0.7': { recipe: 'default', overrides: { keywordContext: { enabled: true, weight: 0.7 } } },
    // Each stage taken out of the defaults alone (docs/recall-quality.md, "Every stage pays for itself").
    'full no entity leg': { recipe: 'default', overrides: { legs: { entity: false } } },
    'full no validity': { recipe: 'default', overrides: { validity: { enabled: false } } },
    'full no importance': { recipe: 'default', overrides: { importance: { enabled: false } } },
    'full no gravity': { recipe: 'default', overrides: { dampening: { gravity: { enabled: false } } } },
    'full no hub dampening': { recipe: 'default', overrides: { dampening: { hub: { enabled: false } } } },
    'full no resolution boost': { recipe: 'default', overrides: { dampening: { resolution: { enabled: false } } } },
    'full context ungated': { recipe: 'default', overrides: { context: { similarityGate: false } } },
    'full weighted α 0.3': { recipe: 'default', overrides: { fusion: { method: 'weighted' } } },
    'full rrf k60': { recipe: 'default', overrides: { fusion: { method: 'rrf', rrfK: 60 } } },
    'full zscore α 0.2': { recipe: 'default', overrides: { fusion: { alpha: 0.2 } } },
    'full zscore α 0.4': { recipe: 'default', overrides: { fusion: { alpha: 0.4 } } },
    'full no context': { recipe: 'default', overrides: { context: { enabled: false } } },
    'full no boost': { recipe: 'default', overrides: { graph: { enabled: false } } },
    'full no rerank': { recipe: 'default', overrides: { rerank: { enabled: false } } },
    // Absolute-cosine knobs were tuned on MiniLM, whose unrelated sentences sit near cosine 0; e5's
    // sit near 0.75 (turns of one LoCoMo conversation: MiniLM mean 0.42, e5 0.85; MiniLM's 0.3 is
    // e5's 0.83 by quantile), so its comparison runs these too (and 'full no gravity' above).
    'full gravity from cosine 0.85': { recipe: 'default', overrides: { dampening: { gravity: { minScore: 0.85 } } } },
    'full zscore α 0.5': { recipe: 'default', overrides: { fusion: { alpha: 0.5 } } },
    'full no time window': { recipe: 'default', overrides: { time: { enabled: false } } },
    'full recency on': { recipe: 'default', overrides: { recency: { enabled: true } } },
    'full recency on half-life 90d': { recipe: 'default', overrides: { recency: { enabled: true, halfLifeDays: 90 } } },
    'full boost 0.15': { recipe: 'default', overrides: { graph: { boostWeight: 0.15 } } },
    'full boost 0.05': { recipe: 'default', overrides: { graph: { boostWeight: 0.05 } } },
    'full importance off': { recipe: 'default', overrides: { importance: { enabled: false } } },
    'full gravity flat': { recipe: 'default', overrides: { dampening: { gravity: { formula: 'flat' } } } },
    'full entity leg': { recipe: 'default', overrides: { legs: { entity: true } } },
    'full entity leg 0.4': { recipe: 'default', overrides: { legs: { entity: true }, fusion: { entityWeight: 0.4 } } },
    'full entity leg hubs over 30 left out': {
      recipe: 'default',
      overrides: { legs: { entity: true }, entityLeg: { maxEntityMentions: 30 } },
    },
    // The stages that failed "every stage pays for itself" taken out together (docs/recall-quality.md):
    // validity, gravity and the graph boost (each neutral or costly alone), then with each mixed stage too.
    ...combined('full lean', { validity: { enabled: false }, dampening: { gravity: { enabled: false } }, graph: { enabled: false } }),
    // Validity off (the one stage whose removal gained on both), then with each of the others too.
    'full no validity no gravity': {
      recipe: 'default',
      overrides: { validity: { enabled: false }, dampening: { gravity: { enabled: false } } },
    },
    'full no validity no boost': { recipe: 'default', overrides: { validity: { enabled: false }, graph: { enabled: false } } },
    'full no validity no hub': { recipe: 'default', overrides: { validity: { enabled: false }, dampening: { hub: { enabled: false } } } },
    'full no validity no gravity no hub': {
      recipe: 'default',
      overrides: { validity: { enabled: false }, dampening: { gravity: { enabled: false }, hub: { enabled: false } } },
    },
    'full no validity no boost no hub': {
      recipe: 'default',
      overrides: { validity: { enabled: false }, graph: { enabled: false }, dampening: { hub: { enabled: false } } },
    },
    // The learned ranking (src/recall/learned-rank-weights.ts).
    'full learned rank': { recipe: 'default', overrides: { learnedRank: { enabled: true } } },
    'full entity leg 0.1 hubs over 30 left out': {
      recipe: 'default',
      overrides: { legs: { entity: true }, fusion: { entityWeight: 0.1 }, entityLeg: { maxEntityMentions: 30 } },
    },
  };
}

/** `name` with `overrides`, and the same with each mixed stage (importance, hub dampening, context) also off, then importance and hub. */
function combined(name: string, overrides: RecallSettingsOverrides): Record<string, Configuration> {
  const off = (extra: RecallSettingsOverrides): Configuration => ({
    recipe: 'default',
    overrides: { ...overrides, ...extra, dampening: { ...overrides.dampening, ...extra.dampening } },
  });
  return {
    [name]: off({}),
    [`${name} no importance`]: off({ importance: { enabled: false } }),
    [`${name} no hub`]: off({ dampening: { hub: { enabled: false } } }),
    [`${name} no context`]: off({ context: { enabled: false } }),
    [`${name} no importance no hub`]: off({ importance: { enabled: false }, dampening: { hub: { enabled: false } } }),
  };
}
