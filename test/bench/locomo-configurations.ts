import type { RecallRecipeName, RecallSettingsOverrides } from '../../src/recall/settings/index.js';

export interface Configuration {
  recipe: RecallRecipeName;
  overrides: RecallSettingsOverrides;
}

/** Reported, never chosen by cross-validation: the leg baselines. */
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
    // Each stage taken out of the defaults alone (docs/recall-quality.md, "Every stage pays for itself").
    'full no entity leg': { recipe: 'default', overrides: { legs: { entity: false } } },
    'full no importance': { recipe: 'default', overrides: { importance: { enabled: false } } },
    // Options off by default turned on.
    'full boost on': { recipe: 'default', overrides: { graph: { enabled: true } } },
    'full no resolution boost': { recipe: 'default', overrides: { resolution: { enabled: false } } },
    'full context ungated': { recipe: 'default', overrides: { context: { similarityGate: false } } },
    'full weighted α 0.3': { recipe: 'default', overrides: { fusion: { method: 'weighted', alpha: 0.3 } } },
    'full zscore α 0.3': { recipe: 'default', overrides: { fusion: { alpha: 0.3 } } },
    'full rrf k60': { recipe: 'default', overrides: { fusion: { method: 'rrf', rrfK: 60 } } },
    'full zscore α 0.2': { recipe: 'default', overrides: { fusion: { alpha: 0.2 } } },
    'full zscore α 0.4': { recipe: 'default', overrides: { fusion: { alpha: 0.4 } } },
    'full no context': { recipe: 'default', overrides: { context: { enabled: false } } },
    'full no rerank': { recipe: 'default', overrides: { rerank: { enabled: false } } },
    'full zscore α 0.5': { recipe: 'default', overrides: { fusion: { alpha: 0.5 } } },
    // A vector leg that can lead (e5-small-v2, bge-small): the fusion refitted toward it.
    'full zscore α 0.6': { recipe: 'default', overrides: { fusion: { alpha: 0.6 } } },
    'full zscore α 0.7': { recipe: 'default', overrides: { fusion: { alpha: 0.7 } } },
    'full no time window': { recipe: 'default', overrides: { time: { enabled: false } } },
    'full boost 0.15': { recipe: 'default', overrides: { graph: { enabled: true, boostWeight: 0.15 } } },
    'full boost 0.05': { recipe: 'default', overrides: { graph: { enabled: true, boostWeight: 0.05 } } },
    'full importance off': { recipe: 'default', overrides: { importance: { enabled: false } } },
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
    // Recall that holds as memory grows: the fixed alpha sweep (above) asked in the pooled namespaces too,
    // and keyword scores from the namespace's own statistics (BM25 re-scored). Alpha by the store's size,
    // the legs' confidence, an agreement bonus and the sessions stage were measured and deleted
    // (docs/recall-quality.md).
    'keyword namespace bm25': { recipe: 'keywordOnly', overrides: { keywordStats: { namespaceScoped: true } } },
    'store α 0.6 namespace bm25': { recipe: 'default', overrides: { fusion: { alpha: 0.6 }, keywordStats: { namespaceScoped: true } } },
  };
}

/**
 * Every configuration of the default recipe with `base` under its own overrides (--base '<json>'):
 * the variants measured around settings other than today's defaults (e.g. another fusion α).
 */
export function withBase(configurations: Record<string, Configuration>, base: RecallSettingsOverrides): Record<string, Configuration> {
  const merge = (a: Record<string, unknown>, b: Record<string, unknown>): Record<string, unknown> => {
    const out: Record<string, unknown> = { ...a };
    for (const [key, value] of Object.entries(b)) {
      const under = out[key];
      out[key] =
        value && typeof value === 'object' && !Array.isArray(value) && under && typeof under === 'object' && !Array.isArray(under)
          ? merge(under as Record<string, unknown>, value as Record<string, unknown>)
          : value;
    }
    return out;
  };
  return Object.fromEntries(
    Object.entries(configurations).map(([name, c]) => [
      name,
      c.recipe === 'default' ? { ...c, overrides: merge(base as Record<string, unknown>, c.overrides as Record<string, unknown>) } : c,
    ]),
  );
}

/** The variants asked in the pooled namespaces too (--pooled): alpha across store sizes, the namespace's own BM25. */
export const STORE_VARIANTS: readonly string[] = [
  'full zscore α 0.4',
  'full zscore α 0.5',
  'full zscore α 0.6',
  'full zscore α 0.7',
  'keyword namespace bm25',
  'store α 0.6 namespace bm25',
];
