import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../config/index.js';
import { DEFAULT_RECALL_SETTINGS, recallSettingsSchema } from './schema.js';

/**
 * The values of the constants this schema replaced (DEFAULT_ALPHA … DEFAULT_PRIORITY_TYPES and
 * MAX_LIMIT, DEFAULT_GRAPH_BOOST_WEIGHT, DEFAULT_RERANK_TOP_N), written out, for the settings that remain.
 */
const FORMER_CONSTANTS: Array<[string, unknown]> = [
  // DEFAULT_ALPHA was 0.3, fitted to MiniLM; 0.6 won every cross-validation fold with e5-small-v2, the default model since.
  ['fusion.alpha', 0.6],
  ['fusion.rrfK', 60], // DEFAULT_RRF_K
  ['overFetchFactor', 4], // DEFAULT_OVER_FETCH_FACTOR
  ['graph.boostWeight', 0.1], // DEFAULT_GRAPH_BOOST_WEIGHT (both)
  ['graph.maxEntities', 20], // DEFAULT_GRAPH_MAX_ENTITIES
  ['graph.maxNeighbours', 50], // DEFAULT_GRAPH_MAX_NEIGHBOURS
  ['graph.maxMemories', 200], // DEFAULT_GRAPH_MAX_MEMORIES
  ['fusion.entityWeight', 0.2], // DEFAULT_ENTITY_LEG_WEIGHT
  ['entityLeg.perEntity', 50], // DEFAULT_ENTITY_LEG_PER_ENTITY
  ['entityLeg.maxEntityMentions', 30], // DEFAULT_ENTITY_LEG_MAX_ENTITY_MENTIONS
  ['resolution.boost', 1.2], // DEFAULT_RESOLUTION_BOOST
  ['resolution.minContentChars', 50], // DEFAULT_RESOLUTION_MIN_CONTENT_CHARS
  ['importance.weight', 0.2], // DEFAULT_IMPORTANCE_WEIGHT
  ['context.weight', 0.5], // DEFAULT_CONTEXT_WEIGHT
  ['context.window', 2], // DEFAULT_CONTEXT_WINDOW
  ['context.anchors', 20], // DEFAULT_CONTEXT_ANCHORS
  ['rerank.topN', 20], // DEFAULT_RERANK_TOP_N (both)
  ['rerank.scoreWeight', 0.7], // DEFAULT_RERANK_SCORE_WEIGHT
  ['rerank.similarityWeight', 0.3], // DEFAULT_RERANK_SIMILARITY_WEIGHT
  ['time.boost', 0.3], // DEFAULT_TIME_WINDOW_BOOST
  ['filters.minImportance', 0], // DEFAULT_MIN_IMPORTANCE
  ['budget.tokenBudget', 2_000], // DEFAULT_TOKEN_BUDGET
  ['budget.limit', 10], // DEFAULT_LIMIT
  ['budget.priorityTypes', ['procedural', 'preference']], // DEFAULT_PRIORITY_TYPES
  ['budget.maxLimit', 100], // MAX_LIMIT
];

const FORMER_FUSION = { method: 'zscore', alpha: 0.3, rrfK: 60, keywordNormalization: 'minmax', missingLeg: 'zero', entityWeight: 0.2 };

/** The former DEFAULT_SETTINGS of src/recall/presets.ts, with the constants' values filled in. */
const FORMER_DEFAULT_SETTINGS = {
  legs: { vector: true, keyword: true, hints: true, entity: true },
  // α 0.6 since e5-small-v2 became the default embedding model (docs/recall-quality.md).
  fusion: { ...FORMER_FUSION, alpha: 0.6 },
  overFetchFactor: 4,
  entityLeg: { perEntity: 50, maxEntityMentions: 30 },
  graph: { enabled: false, boostWeight: 0.1, maxEntities: 20, maxNeighbours: 50, maxMemories: 200 },
  // The keyword leg re-scored with the namespace's own BM25 statistics (off by default).
  keywordStats: { namespaceScoped: false, k1: 1.2, b: 0.75 },
  resolution: { enabled: true, boost: 1.2, minContentChars: 50 },
  importance: { enabled: true, weight: 0.2 },
  time: { enabled: true, boost: 0.3 },
  context: { enabled: true, weight: 0.5, window: 2, anchors: 20, similarityGate: true },
  rerank: { enabled: true, topN: 20, scoreWeight: 0.7, similarityWeight: 0.3 },
  filters: { minImportance: 0 },
  budget: { tokenBudget: 2_000, limit: 10, maxLimit: 100, priorityTypes: ['procedural', 'preference'], preferenceSlots: 2 },
};

function at(settings: unknown, path: string): unknown {
  return path.split('.').reduce<unknown>((value, key) => (value as Record<string, unknown>)[key], settings);
}

/** `{a: {b: value}}` for path `a.b`. */
function patch(path: string, value: unknown): Record<string, unknown> {
  return path
    .split('.')
    .reverse()
    .reduce<unknown>((inner, key) => ({ [key]: inner }), value) as Record<string, unknown>;
}

describe('recall settings schema', () => {
  it('defaults (schema.parse({})) equal the former constants', () => {
    expect(FORMER_CONSTANTS).toHaveLength(25);
    const defaults = recallSettingsSchema.parse({});
    for (const [path, value] of FORMER_CONSTANTS) expect(at(defaults, path), path).toEqual(value);
    expect(defaults).toEqual(FORMER_DEFAULT_SETTINGS);
    expect(DEFAULT_RECALL_SETTINGS).toEqual(FORMER_DEFAULT_SETTINGS);
    expect(Object.isFrozen(DEFAULT_RECALL_SETTINGS.budget.priorityTypes)).toBe(true);
  });

  it('gives each parse its own objects', () => {
    const a = recallSettingsSchema.parse({});
    a.budget.priorityTypes.push('working');
    a.graph.enabled = true;
    expect(recallSettingsSchema.parse({})).toEqual(FORMER_DEFAULT_SETTINGS);
  });

  // [path, accepted values at the bounds, refused values just outside them]
  const BOUNDS: Array<[string, unknown[], unknown[]]> = [
    ['fusion.alpha', [0, 1], [-0.01, 1.01]],
    ['fusion.rrfK', [0, 1e6], [-1, Number.POSITIVE_INFINITY]],
    ['fusion.entityWeight', [0, 1], [-0.1, 1.1]],
    ['keywordStats.k1', [0, 2], [-0.1]],
    ['keywordStats.b', [0, 1], [-0.1, 1.1]],
    ['overFetchFactor', [1, 2.5], [0.99, 0]],
    ['entityLeg.perEntity', [1, 1_000], [0, 1_001, 1.5]],
    ['entityLeg.maxEntityMentions', [0, 0.5], [-1]],
    ['graph.boostWeight', [0, 1], [-0.1, 1.5]],
    ['graph.maxEntities', [1, 500], [0, 1.5]],
    ['graph.maxNeighbours', [0, 500], [-1, 0.5]],
    ['graph.maxMemories', [1, 500], [0, 2.5]],
    ['resolution.boost', [1, 3], [0.99]],
    ['resolution.minContentChars', [0, 10.5], [-1]],
    ['importance.weight', [0, 1], [-0.1, 1.1]],
    ['time.boost', [0, 5], [-0.1, 5.1]],
    ['context.weight', [0, 1], [-0.1, 1.1]],
    ['context.window', [0, 5], [-1, 6, 1.5]],
    ['context.anchors', [0, 100], [-1, 101, 1.5]],
    ['rerank.topN', [1, 1_000], [0, 1.5]],
    ['rerank.scoreWeight', [0, 1], [-0.1, 1.1]],
    ['rerank.similarityWeight', [0, 1], [-0.1, 1.1]],
    ['filters.minImportance', [0, 1], [-0.1, 1.1]],
    ['budget.tokenBudget', [1, null, 1e6], [0, 1.5]],
    ['budget.limit', [1, 100], [0, 101, 1.5]],
    ['budget.maxLimit', [10, 1_000], [0, 9.5]],
  ];

  it.each(BOUNDS)('%s: accepts %j, refuses %j', (path, accepted, refused) => {
    for (const value of accepted) expect(recallSettingsSchema.safeParse(patch(path, value)).success, `${path} = ${value}`).toBe(true);
    for (const value of [...refused, Number.NaN, '1', true]) {
      const result = recallSettingsSchema.safeParse(patch(path, value));
      expect(result.success, `${path} = ${String(value)}`).toBe(false);
      expect(result.error?.issues[0]?.path.join('.')).toBe(path);
      expect(result.error?.issues[0]?.message).toMatch(/^must be /);
    }
  });

  it('refuses every number that is not finite, every flag that is not a boolean and every unknown choice', () => {
    expect(recallSettingsSchema.safeParse(patch('fusion.rrfK', Number.POSITIVE_INFINITY)).success).toBe(false);
    for (const path of ['legs.vector', 'graph.enabled', 'context.enabled', 'context.similarityGate', 'resolution.enabled']) {
      expect(recallSettingsSchema.safeParse(patch(path, 'yes')).success, path).toBe(false);
    }
    expect(recallSettingsSchema.safeParse(patch('fusion.method', 'sum')).success).toBe(false);
    expect(recallSettingsSchema.safeParse(patch('fusion.keywordNormalization', 'l2')).success).toBe(false);
    expect(recallSettingsSchema.safeParse(patch('fusion.missingLeg', 'drop')).success).toBe(false);
    expect(recallSettingsSchema.safeParse(patch('budget.priorityTypes', [1])).success).toBe(false);
  });

  it('refuses unknown keys and sections that are not objects', () => {
    expect(recallSettingsSchema.safeParse({ fusion: { alhpa: 0.5 } }).error?.issues[0]?.code).toBe('unrecognized_keys');
    expect(recallSettingsSchema.safeParse({ turbo: true }).error?.issues[0]?.code).toBe('unrecognized_keys');
    expect(recallSettingsSchema.safeParse({ resolution: null }).success).toBe(false);
  });

  it('checks the rules between fields: limit within maxLimit, at least one leg', () => {
    expect(recallSettingsSchema.safeParse({ budget: { limit: 50, maxLimit: 40 } }).error?.issues[0]).toMatchObject({
      path: ['budget', 'limit'],
      message: 'must be an integer in [1, 40]',
    });
    expect(recallSettingsSchema.safeParse({ budget: { limit: 150, maxLimit: 200 } }).success).toBe(true);
    expect(recallSettingsSchema.safeParse({ legs: { vector: false, keyword: false, hints: false } }).success).toBe(false);
    expect(recallSettingsSchema.safeParse({ legs: { vector: false, keyword: false, hints: false, entity: true } }).success).toBe(false);
    expect(recallSettingsSchema.safeParse({ legs: { vector: false, keyword: false } }).success).toBe(true);
  });
});

describe('recall settings from the environment', () => {
  it('leave a setting to the schema when unset', () => {
    const config = loadConfig({});
    expect([config.GRAPH_BOOST_ENABLED, config.GRAPH_BOOST_WEIGHT, config.RERANK_ENABLED, config.RERANK_TOP_N]).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
  });

  it('are read and refused by their bounds, naming the variable', () => {
    const config = loadConfig({ GRAPH_BOOST_WEIGHT: '0.25', RERANK_TOP_N: '5', RERANK_ENABLED: 'no', GRAPH_BOOST_ENABLED: 'yes' });
    expect([config.GRAPH_BOOST_WEIGHT, config.RERANK_TOP_N, config.RERANK_ENABLED, config.GRAPH_BOOST_ENABLED]).toEqual([
      0.25,
      5,
      false,
      true,
    ]);
    expect(() => loadConfig({ GRAPH_BOOST_WEIGHT: '1.5' })).toThrow(/GRAPH_BOOST_WEIGHT/);
    expect(() => loadConfig({ RERANK_TOP_N: '2.5' })).toThrow(/RERANK_TOP_N/);
    expect(() => loadConfig({ GRAPH_BOOST_ENABLED: 'maybe' })).toThrow(/GRAPH_BOOST_ENABLED/);
  });
});
