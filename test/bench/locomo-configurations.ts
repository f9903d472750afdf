import type { RecallRecipeName, RecallSettingsOverrides } from '../../src/recall/index.js';

export interface Configuration {
  recipe: RecallRecipeName;
  overrides: RecallSettingsOverrides;
}

/**
 * Reported, never chosen by cross-validation: the leg baselines, and the learned ranking (its
 * weights were fitted on these same questions: in sample; learn-ranking.ts holds it out itself).
 */
export const TUNING_BASELINES: readonly string[] = ['vector', 'keyword', 'full learned rank', 'previous learned rank'];

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
    'full no importance': { recipe: 'default', overrides: { importance: { enabled: false } } },
    // Each option that was a default before 2026-11-27 turned on again.
    'full validity on': { recipe: 'default', overrides: { validity: { enabled: true } } },
    'full gravity on': { recipe: 'default', overrides: { dampening: { gravity: { enabled: true } } } },
    'full hub dampening on': { recipe: 'default', overrides: { dampening: { hub: { enabled: true } } } },
    'full boost on': { recipe: 'default', overrides: { graph: { enabled: true } } },
    'full no resolution boost': { recipe: 'default', overrides: { dampening: { resolution: { enabled: false } } } },
    'full context ungated': { recipe: 'default', overrides: { context: { similarityGate: false } } },
    'full weighted α 0.3': { recipe: 'default', overrides: { fusion: { method: 'weighted' } } },
    'full rrf k60': { recipe: 'default', overrides: { fusion: { method: 'rrf', rrfK: 60 } } },
    'full zscore α 0.2': { recipe: 'default', overrides: { fusion: { alpha: 0.2 } } },
    'full zscore α 0.4': { recipe: 'default', overrides: { fusion: { alpha: 0.4 } } },
    'full no context': { recipe: 'default', overrides: { context: { enabled: false } } },
    'full no rerank': { recipe: 'default', overrides: { rerank: { enabled: false } } },
    // Absolute-cosine knobs were tuned on MiniLM, whose unrelated sentences sit near cosine 0; e5's
    // sit near 0.75 (turns of one LoCoMo conversation: MiniLM mean 0.42, e5 0.85; MiniLM's 0.3 is
    // e5's 0.83 by quantile), so its comparison runs these too (and 'full gravity on' above).
    'full gravity from cosine 0.85': {
      recipe: 'default',
      overrides: { dampening: { gravity: { enabled: true, minScore: 0.85 } } },
    },
    'full zscore α 0.5': { recipe: 'default', overrides: { fusion: { alpha: 0.5 } } },
    'full no time window': { recipe: 'default', overrides: { time: { enabled: false } } },
    'full recency on': { recipe: 'default', overrides: { recency: { enabled: true } } },
    'full recency on half-life 90d': { recipe: 'default', overrides: { recency: { enabled: true, halfLifeDays: 90 } } },
    'full boost 0.15': { recipe: 'default', overrides: { graph: { enabled: true, boostWeight: 0.15 } } },
    'full boost 0.05': { recipe: 'default', overrides: { graph: { enabled: true, boostWeight: 0.05 } } },
    'full importance off': { recipe: 'default', overrides: { importance: { enabled: false } } },
    'full gravity flat': { recipe: 'default', overrides: { dampening: { gravity: { enabled: true, formula: 'flat' } } } },
    'full entity leg': { recipe: 'default', overrides: { legs: { entity: true } } },
    'full entity leg 0.4': { recipe: 'default', overrides: { legs: { entity: true }, fusion: { entityWeight: 0.4 } } },
    'full entity leg hubs over 30 left out': {
      recipe: 'default',
      overrides: { legs: { entity: true }, entityLeg: { maxEntityMentions: 30 } },
    },
    // The combined run of 2026-11-27 (docs/recall-quality.md, "Every stage pays for itself"), from the
    // defaults before it ("previous": validity, gravity, hub dampening and the graph boost on).
    ...previousStages(),
    // The learned ranking (src/recall/learned-rank-weights.ts).
    'full learned rank': { recipe: 'default', overrides: { learnedRank: { enabled: true } } },
    'full entity leg 0.1 hubs over 30 left out': {
      recipe: 'default',
      overrides: { legs: { entity: true }, fusion: { entityWeight: 0.1 }, entityLeg: { maxEntityMentions: 30 } },
    },
  };
}

/** The defaults before the combined run of 2026-11-27: validity, gravity, hub dampening and the graph boost on. */
const PREVIOUS: RecallSettingsOverrides = {
  validity: { enabled: true },
  graph: { enabled: true },
  dampening: { gravity: { enabled: true }, hub: { enabled: true } },
};

/** The configurations of that run, each the previous defaults with some stages off. */
function previousStages(): Record<string, Configuration> {
  const off = (...stages: Array<'validity' | 'gravity' | 'boost' | 'hub' | 'importance' | 'context'>): Configuration => {
    const has = (stage: string) => stages.includes(stage as never);
    return {
      recipe: 'default',
      overrides: {
        ...PREVIOUS,
        validity: { enabled: !has('validity') },
        graph: { enabled: !has('boost') },
        dampening: { gravity: { enabled: !has('gravity') }, hub: { enabled: !has('hub') } },
        ...(has('importance') ? { importance: { enabled: false } } : {}),
        ...(has('context') ? { context: { enabled: false } } : {}),
      },
    };
  };
  const lean = ['validity', 'gravity', 'boost'] as const;
  return {
    previous: off(),
    'previous no validity': off('validity'),
    'previous no gravity': off('gravity'),
    'previous no boost': off('boost'),
    'previous no hub': off('hub'),
    'previous no importance': off('importance'),
    'previous no context': off('context'),
    'previous lean': off(...lean),
    'previous lean no hub': off(...lean, 'hub'),
    'previous lean no importance': off(...lean, 'importance'),
    'previous lean no context': off(...lean, 'context'),
    'previous lean no importance no hub': off(...lean, 'importance', 'hub'),
    'previous no validity no gravity': off('validity', 'gravity'),
    'previous no validity no boost': off('validity', 'boost'),
    'previous no validity no hub': off('validity', 'hub'),
    'previous no validity no gravity no hub': off('validity', 'gravity', 'hub'),
    'previous no validity no boost no hub': off('validity', 'boost', 'hub'),
    // The learned ranking on the pipeline its weights were fitted on (src/recall/learned-rank-weights.ts).
    'previous learned rank': { recipe: 'default', overrides: { ...PREVIOUS, learnedRank: { enabled: true } } },
  };
}
