import type { RecallSettingsOverrides } from '../../src/recall/config.js';
import type { RecallPresetName } from '../../src/recall/presets.js';

export interface Configuration {
  preset: RecallPresetName;
  overrides: RecallSettingsOverrides;
}

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
    'full no-context': { preset: 'default', overrides: { context: { enabled: false } } },
    'full no-boost': { preset: 'default', overrides: { graph: { enabled: false } } },
    'full no-dampening': { preset: 'default', overrides: { dampening: { gravity: { enabled: false }, hub: { enabled: false }, resolution: { enabled: false } } } },
    'full no-rerank': { preset: 'default', overrides: { rerank: { enabled: false } } },
    'full recency': { preset: 'default', overrides: { recency: { enabled: true } } },
  };
}
