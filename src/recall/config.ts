import type { FusionMethod } from './types.js';

// Fusion and context defaults were chosen on both dev datasets together (LoCoMo and LongMemEval;
// npm run bench:locomo -- <dirs> --cv, README "Recall quality"): z-score fusion with the vector leg
// at 0.3 (BM25 is the stronger leg on conversational memory), context gated by similarity.
export const DEFAULT_ALPHA = 0.3;
export const DEFAULT_RRF_K = 60;
/** Candidates fetched per leg = limit × this (4: room for filters and reranking). */
export const DEFAULT_OVER_FETCH_FACTOR = 4;

export const DEFAULT_GRAPH_BOOST_WEIGHT = 0.1;
export const DEFAULT_GRAPH_BOOST_TIMEOUT_MS = 500;
export const DEFAULT_GRAPH_MAX_ENTITIES = 20;
export const DEFAULT_GRAPH_MAX_NEIGHBOURS = 50;
export const DEFAULT_GRAPH_MAX_MEMORIES = 200;

/** Weight of the entity leg's normalized score in fusion (README "Recall quality" has its figures). */
export const DEFAULT_ENTITY_LEG_WEIGHT = 0.2;
/** Memories read per named entity by the entity leg (the newest). */
export const DEFAULT_ENTITY_LEG_PER_ENTITY = 50;
/**
 * Entities mentioned more often than this are hubs: the boost still walks them, the leg does not
 * (at 500 the leg cost LoCoMo 0.016 recall@10; at 30 it is neutral on both dev sets, README).
 */
export const DEFAULT_ENTITY_LEG_MAX_ENTITY_MENTIONS = 30;

export const DEFAULT_GRAVITY_PENALTY = 0.5;
export const DEFAULT_GRAVITY_MIN_SCORE = 0.3;
export const DEFAULT_HUB_PERCENTILE = 0.9;
export const DEFAULT_HUB_PENALTY = 0.7;
export const DEFAULT_RESOLUTION_BOOST = 1.2;
export const DEFAULT_RESOLUTION_MIN_CONTENT_CHARS = 50;

export const DEFAULT_RECENCY_HALF_LIFE_DAYS = 30;
export const DEFAULT_RECENCY_WEIGHT = 0.3;
export const DEFAULT_IMPORTANCE_WEIGHT = 0.2;

/** Share of an anchor's score given to its session neighbours (tuned on LoCoMo, see README). */
export const DEFAULT_CONTEXT_WEIGHT = 0.5;
export const DEFAULT_CONTEXT_WINDOW = 2;
export const DEFAULT_CONTEXT_ANCHORS = 20;

export const DEFAULT_RERANK_TOP_N = 20;
export const DEFAULT_RERANK_TIMEOUT_MS = 2_000;
export const DEFAULT_RERANK_SCORE_WEIGHT = 0.7;
export const DEFAULT_RERANK_SIMILARITY_WEIGHT = 0.3;

/** Factor 1 + this on memories whose event time lies in the period a question names ("last Saturday"). */
export const DEFAULT_TIME_WINDOW_BOOST = 0.3;

/** Factor on a temporal memory whose validUntil has passed (expired ranks lower, never deleted). */
export const DEFAULT_EXPIRED_PENALTY = 0.5;

export const DEFAULT_MIN_IMPORTANCE = 0;
export const DEFAULT_TOKEN_BUDGET = 2_000;
export const DEFAULT_LIMIT = 10;
export const MAX_LIMIT = 100;
export const DEFAULT_PRIORITY_TYPES: readonly string[] = ['procedural', 'preference'];

export type KeywordNormalization = 'max' | 'minmax';
/** What weighted fusion does when a candidate has only one leg score: use it alone, or count the other as 0. */
export type MissingLegPolicy = 'single' | 'zero';

/** Everything that decides what recall runs and how it scores — plain data, see presets.ts. */
export interface RecallSettings {
  /** `entity`: memories that mention the entities the question names (legs/entity-leg.ts). */
  legs: { vector: boolean; keyword: boolean; hints: boolean; entity: boolean };
  fusion: {
    method: FusionMethod;
    /** Weight of the vector score in weighted fusion; 1 − alpha goes to keyword/hints. */
    alpha: number;
    rrfK: number;
    keywordNormalization: KeywordNormalization;
    missingLeg: MissingLegPolicy;
    /** Weight of the entity leg: its normalized score times this is added to the fused score. */
    entityWeight: number;
  };
  overFetchFactor: number;
  /** The entity leg's bounds (legs.entity switches it on). */
  entityLeg: { perEntity: number; maxEntityMentions: number };
  graph: {
    enabled: boolean;
    boostWeight: number;
    timeoutMs: number;
    maxEntities: number;
    maxNeighbours: number;
    maxMemories: number;
  };
  dampening: {
    gravity: { enabled: boolean; penalty: number; minScore: number };
    hub: { enabled: boolean; percentile: number; penalty: number };
    resolution: { enabled: boolean; boost: number; minContentChars: number };
  };
  recency: { enabled: boolean; halfLifeDays: number; weight: number };
  /** Low importance lowers rank (DESIGN "Importance"): factor 1 − weight + weight × importance. */
  importance: { enabled: boolean; weight: number };
  /** Memories whose validUntil is before the question's time are multiplied by expiredPenalty. */
  validity: { enabled: boolean; expiredPenalty: number };
  /** A past period named in the question, resolved against asOf: memories from then gain `1 + boost`. */
  time: { enabled: boolean; boost: number };
  /** Neighbours in the same session of the top `anchors` results gain weight × the anchor's score. */
  context: { enabled: boolean; weight: number; window: number; anchors: number; similarityGate: boolean };
  rerank: { enabled: boolean; topN: number; timeoutMs: number; scoreWeight: number; similarityWeight: number };
  filters: { minImportance: number };
  budget: { tokenBudget: number | null; limit: number; maxLimit: number; priorityTypes: readonly string[] };
}

export type DeepPartial<T> = {
  [K in keyof T]?: T[K] extends readonly unknown[] ? T[K] : T[K] extends object ? DeepPartial<T[K]> : T[K];
};

export type RecallSettingsOverrides = DeepPartial<RecallSettings>;
