import { ValidationError } from '../errors.js';
import {
  DEFAULT_ALPHA,
  DEFAULT_CONTEXT_ANCHORS,
  DEFAULT_CONTEXT_WEIGHT,
  DEFAULT_CONTEXT_WINDOW,
  DEFAULT_ENTITY_LEG_MAX_ENTITY_MENTIONS,
  DEFAULT_ENTITY_LEG_PER_ENTITY,
  DEFAULT_ENTITY_LEG_WEIGHT,
  DEFAULT_EXPIRED_PENALTY,
  DEFAULT_GRAPH_BOOST_TIMEOUT_MS,
  DEFAULT_GRAPH_BOOST_WEIGHT,
  DEFAULT_GRAPH_MAX_ENTITIES,
  DEFAULT_GRAPH_MAX_MEMORIES,
  DEFAULT_GRAPH_MAX_NEIGHBOURS,
  DEFAULT_GRAVITY_MIN_SCORE,
  DEFAULT_GRAVITY_PENALTY,
  DEFAULT_HUB_PENALTY,
  DEFAULT_HUB_PERCENTILE,
  DEFAULT_IMPORTANCE_WEIGHT,
  DEFAULT_LIMIT,
  DEFAULT_MIN_IMPORTANCE,
  DEFAULT_OVER_FETCH_FACTOR,
  DEFAULT_PRIORITY_TYPES,
  DEFAULT_RECENCY_HALF_LIFE_DAYS,
  DEFAULT_RECENCY_WEIGHT,
  DEFAULT_RERANK_SCORE_WEIGHT,
  DEFAULT_RERANK_SIMILARITY_WEIGHT,
  DEFAULT_RERANK_TIMEOUT_MS,
  DEFAULT_RERANK_TOP_N,
  DEFAULT_RESOLUTION_BOOST,
  DEFAULT_RESOLUTION_MIN_CONTENT_CHARS,
  DEFAULT_RRF_K,
  DEFAULT_TIME_WINDOW_BOOST,
  DEFAULT_TOKEN_BUDGET,
  MAX_LIMIT,
  type RecallSettings,
  type RecallSettingsOverrides,
} from './config.js';

const DEFAULT_SETTINGS: RecallSettings = {
  legs: { vector: true, keyword: true, hints: true, entity: true },
  fusion: {
    method: 'zscore',
    alpha: DEFAULT_ALPHA,
    rrfK: DEFAULT_RRF_K,
    keywordNormalization: 'minmax',
    missingLeg: 'zero',
    entityWeight: DEFAULT_ENTITY_LEG_WEIGHT,
  },
  overFetchFactor: DEFAULT_OVER_FETCH_FACTOR,
  entityLeg: { perEntity: DEFAULT_ENTITY_LEG_PER_ENTITY, maxEntityMentions: DEFAULT_ENTITY_LEG_MAX_ENTITY_MENTIONS },
  graph: {
    enabled: true,
    boostWeight: DEFAULT_GRAPH_BOOST_WEIGHT,
    timeoutMs: DEFAULT_GRAPH_BOOST_TIMEOUT_MS,
    maxEntities: DEFAULT_GRAPH_MAX_ENTITIES,
    maxNeighbours: DEFAULT_GRAPH_MAX_NEIGHBOURS,
    maxMemories: DEFAULT_GRAPH_MAX_MEMORIES,
  },
  dampening: {
    gravity: { enabled: true, penalty: DEFAULT_GRAVITY_PENALTY, minScore: DEFAULT_GRAVITY_MIN_SCORE },
    hub: { enabled: true, percentile: DEFAULT_HUB_PERCENTILE, penalty: DEFAULT_HUB_PENALTY },
    resolution: { enabled: true, boost: DEFAULT_RESOLUTION_BOOST, minContentChars: DEFAULT_RESOLUTION_MIN_CONTENT_CHARS },
  },
  recency: { enabled: false, halfLifeDays: DEFAULT_RECENCY_HALF_LIFE_DAYS, weight: DEFAULT_RECENCY_WEIGHT },
  importance: { enabled: true, weight: DEFAULT_IMPORTANCE_WEIGHT },
  validity: { enabled: true, expiredPenalty: DEFAULT_EXPIRED_PENALTY },
  time: { enabled: true, boost: DEFAULT_TIME_WINDOW_BOOST },
  context: {
    enabled: true,
    weight: DEFAULT_CONTEXT_WEIGHT,
    window: DEFAULT_CONTEXT_WINDOW,
    anchors: DEFAULT_CONTEXT_ANCHORS,
    similarityGate: true,
  },
  rerank: {
    enabled: true,
    topN: DEFAULT_RERANK_TOP_N,
    timeoutMs: DEFAULT_RERANK_TIMEOUT_MS,
    scoreWeight: DEFAULT_RERANK_SCORE_WEIGHT,
    similarityWeight: DEFAULT_RERANK_SIMILARITY_WEIGHT,
  },
  filters: { minImportance: DEFAULT_MIN_IMPORTANCE },
  budget: { tokenBudget: DEFAULT_TOKEN_BUDGET, limit: DEFAULT_LIMIT, maxLimit: MAX_LIMIT, priorityTypes: DEFAULT_PRIORITY_TYPES },
};

/** Every ranking adjustment off: a leg's own order, for the benchmark baselines. */
const PLAIN_RANKING: RecallSettingsOverrides = {
  graph: { enabled: false },
  dampening: { gravity: { enabled: false }, hub: { enabled: false }, resolution: { enabled: false } },
  recency: { enabled: false },
  importance: { enabled: false },
  validity: { enabled: false },
  time: { enabled: false },
  context: { enabled: false },
  rerank: { enabled: false },
};

const PRESET_OVERRIDES = {
  default: {},
  vectorOnly: { ...PLAIN_RANKING, legs: { vector: true, keyword: false, hints: false, entity: false } },
  keywordOnly: { ...PLAIN_RANKING, legs: { vector: false, keyword: true, hints: false, entity: false } },
  fast: { legs: { entity: false }, graph: { enabled: false }, rerank: { enabled: false } },
} satisfies Record<string, RecallSettingsOverrides>;

export type RecallPresetName = keyof typeof PRESET_OVERRIDES;
export const RECALL_PRESET_NAMES = Object.keys(PRESET_OVERRIDES) as RecallPresetName[];

export function isRecallPresetName(name: string): name is RecallPresetName {
  return Object.hasOwn(PRESET_OVERRIDES, name);
}

/**
 * The preset's settings with `overrides` deep-merged on top (arrays are replaced). Returns a fresh
 * object; throws ValidationError for unknown presets or keys and out-of-range values.
 */
export function resolveRecallSettings(preset: RecallPresetName = 'default', overrides: RecallSettingsOverrides = {}): RecallSettings {
  if (!isRecallPresetName(preset)) {
    throw new ValidationError(`unknown recall preset "${String(preset)}"`, { preset, known: RECALL_PRESET_NAMES });
  }
  const withPreset = merge(DEFAULT_SETTINGS, PRESET_OVERRIDES[preset], 'preset');
  const settings = merge(withPreset, overrides, 'settings') as RecallSettings;
  validateRecallSettings(settings);
  return settings;
}

function merge(base: unknown, patch: unknown, path: string): unknown {
  if (patch === undefined) return structuredClone(base);
  if (!isPlainObject(base)) return Array.isArray(patch) ? [...patch] : patch;
  if (!isPlainObject(patch)) throw new ValidationError(`${path} must be an object`, { path });
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(base)) out[key] = structuredClone(value);
  for (const [key, value] of Object.entries(patch)) {
    if (!Object.hasOwn(base, key)) throw new ValidationError(`unknown recall setting ${path}.${key}`, { path: `${path}.${key}` });
    out[key] = merge(base[key], value, `${path}.${key}`);
  }
  return out;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Throws ValidationError naming the first setting that is out of range. */
export function validateRecallSettings(s: RecallSettings): void {
  const checks: Array<[string, unknown, (v: number) => boolean, string]> = [
    ['fusion.alpha', s.fusion.alpha, (v) => v >= 0 && v <= 1, 'in [0, 1]'],
    ['fusion.rrfK', s.fusion.rrfK, (v) => v >= 0, '>= 0'],
    ['fusion.entityWeight', s.fusion.entityWeight, (v) => v >= 0 && v <= 1, 'in [0, 1]'],
    ['overFetchFactor', s.overFetchFactor, (v) => v >= 1, '>= 1'],
    ['entityLeg.perEntity', s.entityLeg.perEntity, (v) => Number.isInteger(v) && v >= 1 && v <= 1_000, 'an integer in [1, 1000]'],
    ['entityLeg.maxEntityMentions', s.entityLeg.maxEntityMentions, (v) => v >= 0, '>= 0'],
    ['graph.boostWeight', s.graph.boostWeight, (v) => v >= 0 && v <= 1, 'in [0, 1]'],
    ['graph.timeoutMs', s.graph.timeoutMs, (v) => v > 0, '> 0'],
    ['graph.maxEntities', s.graph.maxEntities, isPositiveInt, 'a positive integer'],
    ['graph.maxNeighbours', s.graph.maxNeighbours, (v) => Number.isInteger(v) && v >= 0, 'an integer >= 0'],
    ['graph.maxMemories', s.graph.maxMemories, isPositiveInt, 'a positive integer'],
    ['dampening.gravity.penalty', s.dampening.gravity.penalty, isFraction, 'in [0, 1]'],
    ['dampening.gravity.minScore', s.dampening.gravity.minScore, isFraction, 'in [0, 1]'],
    ['dampening.hub.percentile', s.dampening.hub.percentile, isFraction, 'in [0, 1]'],
    ['dampening.hub.penalty', s.dampening.hub.penalty, isFraction, 'in [0, 1]'],
    ['dampening.resolution.boost', s.dampening.resolution.boost, (v) => v >= 1, '>= 1'],
    ['dampening.resolution.minContentChars', s.dampening.resolution.minContentChars, (v) => v >= 0, '>= 0'],
    ['recency.halfLifeDays', s.recency.halfLifeDays, (v) => v > 0, '> 0'],
    ['recency.weight', s.recency.weight, isFraction, 'in [0, 1]'],
    ['importance.weight', s.importance.weight, isFraction, 'in [0, 1]'],
    ['validity.expiredPenalty', s.validity.expiredPenalty, isFraction, 'in [0, 1]'],
    ['time.boost', s.time.boost, (v) => v >= 0 && v <= 5, 'in [0, 5]'],
    ['context.weight', s.context.weight, isFraction, 'in [0, 1]'],
    ['context.window', s.context.window, (v) => Number.isInteger(v) && v >= 0 && v <= 5, 'an integer in [0, 5]'],
    ['context.anchors', s.context.anchors, (v) => Number.isInteger(v) && v >= 0 && v <= 100, 'an integer in [0, 100]'],
    ['rerank.topN', s.rerank.topN, isPositiveInt, 'a positive integer'],
    ['rerank.timeoutMs', s.rerank.timeoutMs, (v) => v > 0, '> 0'],
    ['rerank.scoreWeight', s.rerank.scoreWeight, isFraction, 'in [0, 1]'],
    ['rerank.similarityWeight', s.rerank.similarityWeight, isFraction, 'in [0, 1]'],
    ['filters.minImportance', s.filters.minImportance, isFraction, 'in [0, 1]'],
    ['budget.limit', s.budget.limit, (v) => isPositiveInt(v) && v <= s.budget.maxLimit, `an integer in [1, ${s.budget.maxLimit}]`],
    ['budget.maxLimit', s.budget.maxLimit, isPositiveInt, 'a positive integer'],
  ];
  if (s.budget.tokenBudget !== null) checks.push(['budget.tokenBudget', s.budget.tokenBudget, isPositiveInt, 'a positive integer or null']);
  for (const [path, value, ok, expected] of checks) {
    if (typeof value !== 'number' || !Number.isFinite(value) || !ok(value)) {
      throw new ValidationError(`recall setting ${path} must be ${expected} (got ${String(value)})`, { path, value });
    }
  }
  const enums: Array<[string, unknown, readonly string[]]> = [
    ['fusion.method', s.fusion.method, ['weighted', 'rrf', 'zscore']],
    ['fusion.keywordNormalization', s.fusion.keywordNormalization, ['max', 'minmax']],
    ['fusion.missingLeg', s.fusion.missingLeg, ['single', 'zero']],
  ];
  for (const [path, value, allowed] of enums) {
    if (typeof value !== 'string' || !allowed.includes(value)) {
      throw new ValidationError(`recall setting ${path} must be one of ${allowed.join(', ')} (got ${String(value)})`, { path, value });
    }
  }
  const flags: Array<[string, unknown]> = [
    ['legs.vector', s.legs.vector],
    ['legs.keyword', s.legs.keyword],
    ['legs.hints', s.legs.hints],
    ['legs.entity', s.legs.entity],
    ['graph.enabled', s.graph.enabled],
    ['dampening.gravity.enabled', s.dampening.gravity.enabled],
    ['dampening.hub.enabled', s.dampening.hub.enabled],
    ['dampening.resolution.enabled', s.dampening.resolution.enabled],
    ['recency.enabled', s.recency.enabled],
    ['importance.enabled', s.importance.enabled],
    ['validity.enabled', s.validity.enabled],
    ['time.enabled', s.time.enabled],
    ['rerank.enabled', s.rerank.enabled],
    ['context.similarityGate', s.context.similarityGate],
  ];
  for (const [path, value] of flags) {
    if (typeof value !== 'boolean')
      throw new ValidationError(`recall setting ${path} must be a boolean (got ${String(value)})`, { path, value });
  }
  if (!Array.isArray(s.budget.priorityTypes) || !s.budget.priorityTypes.every((t) => typeof t === 'string')) {
    throw new ValidationError('recall setting budget.priorityTypes must be a list of memory types', { path: 'budget.priorityTypes' });
  }
  if (!s.legs.vector && !s.legs.keyword && !s.legs.hints) {
    throw new ValidationError('recall needs at least one leg (legs.vector, legs.keyword or legs.hints)', { path: 'legs' });
  }
}

function isPositiveInt(v: number): boolean {
  return Number.isInteger(v) && v >= 1;
}

function isFraction(v: number): boolean {
  return v >= 0 && v <= 1;
}
