import type { RecallSettingsOverrides } from '../../src/recall/config.js';
import type { RecallPresetName } from '../../src/recall/presets.js';

export interface Configuration {
  preset: RecallPresetName;
  overrides: RecallSettingsOverrides;
}

/** Leg baselines: reported, never chosen by cross-validation. */
export const TUNING_BASELINES: readonly string[] = ['vector', 'keyword'];

/** The three required columns, and (with --variants) the alternatives the defaults were chosen against. */
export function loadConfigurations(withVariants: boolean): Record<string, Configuration> {
  const base: Record<string, Configuration> = {
    full: { preset: 'default', overrides: {} },
    vector: { preset: 'vectorOnly', overrides: {} },
    keyword: { preset: 'keywordOnly', overrides: {} },
  };
  if (!withVariants) return base;
  return {
    ...base,
    'full previous defaults (weighted α 0.25 and ungated context)': {
      preset: 'default',
      overrides: { fusion: { method: 'weighted', alpha: 0.25 }, context: { similarityGate: false } },
    },
    'full context ungated': { preset: 'default', overrides: { context: { similarityGate: false } } },
    'full weighted α 0.3': { preset: 'default', overrides: { fusion: { method: 'weighted' } } },
    'full rrf k60': { preset: 'default', overrides: { fusion: { method: 'rrf', rrfK: 60 } } },
    'full zscore α 0.2': { preset: 'default', overrides: { fusion: { alpha: 0.2 } } },
    'full zscore α 0.4': { preset: 'default', overrides: { fusion: { alpha: 0.4 } } },
    'full no context': { preset: 'default', overrides: { context: { enabled: false } } },
    'full no boost': { preset: 'default', overrides: { graph: { enabled: false } } },
    'full no rerank': { preset: 'default', overrides: { rerank: { enabled: false } } },
    'full no time window': { preset: 'default', overrides: { time: { enabled: false } } },
    'full recency on': { preset: 'default', overrides: { recency: { enabled: true } } },
    'full entity leg': { preset: 'default', overrides: { legs: { entity: true } } },
    'full entity leg 0.4': { preset: 'default', overrides: { legs: { entity: true }, fusion: { entityWeight: 0.4 } } },
    'full entity leg hubs over 30 left out': {
      preset: 'default',
      overrides: { legs: { entity: true }, entityLeg: { maxEntityMentions: 30 } },
    },
    'full entity leg 0.1 hubs over 30 left out': {
      preset: 'default',
      overrides: { legs: { entity: true }, fusion: { entityWeight: 0.1 }, entityLeg: { maxEntityMentions: 30 } },
    },
  };
}
