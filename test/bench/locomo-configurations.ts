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
    'full rrf k60': { preset: 'default', overrides: { fusion: { method: 'rrf', rrfK: 60 } } },
    'full rrf k10': { preset: 'default', overrides: { fusion: { method: 'rrf', rrfK: 10 } } },
    'full seed fusion': { preset: 'default', overrides: { fusion: { alpha: 0.7, keywordNormalization: 'max', missingLeg: 'single' }, graph: { boostWeight: 0.15 } } },
    'full alpha 0.1': { preset: 'default', overrides: { fusion: { alpha: 0.1 } } },
    'full alpha 0.4': { preset: 'default', overrides: { fusion: { alpha: 0.4 } } },
    'full no-context': { preset: 'default', overrides: { context: { enabled: false } } },
    'full context 0.25': { preset: 'default', overrides: { context: { weight: 0.25 } } },
    'full context window 1': { preset: 'default', overrides: { context: { window: 1 } } },
    'full no-boost': { preset: 'default', overrides: { graph: { enabled: false } } },
    'full no-dampening': { preset: 'default', overrides: { dampening: { gravity: { enabled: false }, hub: { enabled: false }, resolution: { enabled: false } } } },
    'full no-rerank': { preset: 'default', overrides: { rerank: { enabled: false } } },
    'full recency': { preset: 'default', overrides: { recency: { enabled: true } } },
    'full recency 0.1/365d': { preset: 'default', overrides: { recency: { enabled: true, weight: 0.1, halfLifeDays: 365 } } },
  };
}
