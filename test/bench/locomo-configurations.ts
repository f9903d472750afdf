import type { RecallRecipeName, RecallSettingsOverrides } from '../../src/recall/index.js';

export interface Configuration {
  recipe: RecallRecipeName;
  overrides: RecallSettingsOverrides;
}

/** Leg baselines: reported, never chosen by cross-validation. */
export const TUNING_BASELINES: readonly string[] = ['vector', 'keyword'];

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
    'full context ungated': { recipe: 'default', overrides: { context: { similarityGate: false } } },
    'full weighted α 0.3': { recipe: 'default', overrides: { fusion: { method: 'weighted' } } },
    'full rrf k60': { recipe: 'default', overrides: { fusion: { method: 'rrf', rrfK: 60 } } },
    'full zscore α 0.2': { recipe: 'default', overrides: { fusion: { alpha: 0.2 } } },
    'full zscore α 0.4': { recipe: 'default', overrides: { fusion: { alpha: 0.4 } } },
    'full no context': { recipe: 'default', overrides: { context: { enabled: false } } },
    'full no boost': { recipe: 'default', overrides: { graph: { enabled: false } } },
    'full no rerank': { recipe: 'default', overrides: { rerank: { enabled: false } } },
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
    'full entity leg 0.1 hubs over 30 left out': {
      recipe: 'default',
      overrides: { legs: { entity: true }, fusion: { entityWeight: 0.1 }, entityLeg: { maxEntityMentions: 30 } },
    },
  };
}
