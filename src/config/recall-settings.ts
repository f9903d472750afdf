import { z } from 'zod/v3';
import { ValidationError } from '../errors.js';

/**
 * Recall settings: everything that decides what recall runs and how it scores, as one schema.
 * Each field declares its bounds, its default and its unit (in the name or the description);
 * `recallSettingsSchema.parse({})` is the default settings. Named recipes and the merge of
 * overrides live in src/recall/settings/; the environment variables that set some of these
 * fields (config/schema.ts) take their bounds and defaults from here.
 *
 * Fusion and context defaults were chosen on both dev datasets together (LoCoMo and LongMemEval;
 * npm run bench:locomo -- <dirs> --cv, docs/recall-quality.md): z-score fusion with the vector leg
 * at 0.3 (BM25 is the stronger leg on conversational memory), context gated by similarity. The
 * graph boost, gravity and hub dampening and validity are options, off by default: together they
 * did not pay for themselves on either dev set (docs/recall-quality.md, "Every stage pays for itself").
 */

interface Bounds {
  /** Inclusive lower bound. */
  min?: number;
  /** Exclusive lower bound. */
  above?: number;
  /** Inclusive upper bound. */
  max?: number;
  int?: boolean;
}

/** What a number within `b` is, in words: "in [0, 1]", "an integer in [1, 1000]", "> 0", … */
function expected(b: Bounds): string {
  if (b.int && b.min === 1 && b.max === undefined) return 'a positive integer';
  const range =
    b.min !== undefined && b.max !== undefined
      ? `in [${b.min}, ${b.max}]`
      : b.min !== undefined
        ? `>= ${b.min}`
        : b.above !== undefined
          ? `> ${b.above}`
          : 'a number';
  return b.int ? `an integer ${range}` : range;
}

/** A finite number within `b`; every refusal says what the field accepts. */
function num(b: Bounds, accepts = expected(b)) {
  const message = `must be ${accepts}`;
  let n = z.number({ invalid_type_error: message, required_error: message }).finite({ message });
  if (b.int) n = n.int({ message });
  if (b.min !== undefined) n = n.min(b.min, { message });
  if (b.above !== undefined) n = n.gt(b.above, { message });
  if (b.max !== undefined) n = n.max(b.max, { message });
  return n;
}

const fraction = () => num({ min: 0, max: 1 });
const flag = () => z.boolean({ invalid_type_error: 'must be a boolean' });
const oneOf = <const T extends readonly [string, ...string[]]>(values: T) =>
  z.enum(values, { errorMap: () => ({ message: `must be one of ${values.join(', ')}` }) });
/** A section of the settings: unknown keys are refused, omitted ones take their defaults. */
const section = <T extends z.ZodRawShape>(shape: T) => z.object(shape, { invalid_type_error: 'must be an object' }).strict();

const legs = section({
  vector: flag().default(true).describe('vector leg: cosine similarity on the chunk vector index'),
  keyword: flag().default(true).describe('keyword leg: Lucene BM25 on memory content'),
  hints: flag()
    .default(true)
    .describe('hints leg: Lucene BM25 on hypothetical questions (off unless HINTS_ENABLED, src/recall/settings/env.ts)'),
  entity: flag().default(true).describe('entity leg: memories that mention the entities the question names (legs/entity-leg.ts)'),
});

const fusion = section({
  method: oneOf(['weighted', 'rrf', 'zscore']).default('zscore'),
  alpha: fraction().default(0.3).describe('weight of the vector score in weighted fusion; 1 − alpha goes to keyword/hints'),
  rrfK: num({ min: 0 }).default(60).describe('RRF rank constant k (ranks)'),
  keywordNormalization: oneOf(['max', 'minmax']).default('minmax'),
  missingLeg: oneOf(['single', 'zero'])
    .default('zero')
    .describe('what weighted fusion does when a candidate has only one leg score: use it alone, or count the other as 0'),
  entityWeight: fraction()
    .default(0.2)
    .describe(
      'weight of the entity leg: its normalized score times this is added to the fused score (docs/entities.md, typed entities in recall)',
    ),
});

const keywordContext = section({
  enabled: flag()
    .default(false)
    .describe(
      "keyword leg also reads each memory of a session with its neighbourhood (the session's date, the speaker, the end of the previous turn) and fuses both readings; off: it lifts the keyword leg on dialogue but costs the full pipeline on both dev sets (docs/recall-quality.md)",
    ),
  weight: fraction().default(0.5).describe('share of the in-context reading in the keyword score (each reading scaled by its best score)'),
});

const entityLeg = section({
  perEntity: num({ int: true, min: 1, max: 1_000 }).default(50).describe('memories read per named entity (the newest)'),
  maxEntityMentions: num({ min: 0 })
    .default(30)
    .describe(
      'mentions above which an entity is a hub: the boost still walks it, the leg does not (at 500 the leg cost LoCoMo 0.016 recall@10; at 30 it is neutral on both dev sets)',
    ),
});

const graph = section({
  enabled: flag()
    .default(false)
    .describe(
      'graph boost: memories that mention the entities the question names, or one hop from them, gain an additive boost; off: with validity, gravity and hub dampening off it gained on both dev sets, and its effect alone moved with each ingest (docs/recall-quality.md, "Every stage pays for itself")',
    ),
  boostWeight: fraction()
    .default(0.1)
    .describe("additive boost weight; the design's 0.15 lost recall on both dev sets against 0.1 (docs/deviations.md)"),
  timeoutMs: num({ above: 0 })
    .default(500)
    .describe('milliseconds; kept for configuration only: the boost is bounded by work (the max* limits), not by a deadline'),
  maxEntities: num({ int: true, min: 1 }).default(20).describe('entities the question names, at most'),
  maxNeighbours: num({ int: true, min: 0 }).default(50).describe('related entities one RELATES_TO hop away, at most'),
  maxMemories: num({ int: true, min: 1 }).default(200).describe('memories boosted, at most'),
});

const dampening = section({
  gravity: section({
    enabled: flag()
      .default(false)
      .describe(
        'off by default: no effect on LoCoMo, off together with validity, the graph boost and hub dampening it gained on both dev sets',
      ),
    penalty: fraction()
      .default(0.5)
      .describe('factor on the excess over the threshold of a vector-only hit sharing no word with the question'),
    minScore: fraction().default(0.3).describe('cosine similarity above which gravity applies'),
    formula: oneOf(['flat', 'excess'])
      .default('flat')
      .describe(
        "flat: the score times the penalty (the design's rule; at least as good on both dev sets, docs/deviations.md); excess: the penalty scales only the index score's excess over the threshold (keeps vector order)",
      ),
  }).default({}),
  hub: section({
    enabled: flag().default(false).describe('off by default: mixed alone, neutral or better on both dev sets in the combined run'),
    percentile: fraction().default(0.9).describe("percentile of the candidates' entity mention counts above which an entity is a hub"),
    penalty: fraction().default(0.7).describe('factor on a memory whose linked entities are all hubs'),
  }).default({}),
  resolution: section({
    enabled: flag().default(true),
    boost: num({ min: 1 }).default(1.2).describe('factor on constraints and decisions (half the excess for a memory with a date)'),
    minContentChars: num({ min: 0 }).default(50).describe('characters of content a memory needs for the resolution boost'),
  }).default({}),
});

const recency = section({
  enabled: flag().default(false),
  halfLifeDays: num({ above: 0 }).default(30).describe('days; factor 1 − weight + weight × 0.5^(age / halfLifeDays)'),
  weight: fraction().default(0.3),
});

const importance = section({
  enabled: flag().default(true),
  weight: fraction().default(0.2).describe("low importance lowers rank (DESIGN 'Importance'): factor 1 − weight + weight × importance"),
});

const validity = section({
  enabled: flag()
    .default(false)
    .describe(
      'expired temporal memories rank lower; off by default: it cost both dev sets, whose questions ask about the past (docs/recall-quality.md, "Every stage pays for itself"); the decay pass still flags them expired',
    ),
  expiredPenalty: fraction()
    .default(0.5)
    .describe('factor on a temporal memory whose validUntil has passed (expired ranks lower, never deleted)'),
});

const time = section({
  enabled: flag().default(true),
  boost: num({ min: 0, max: 5 })
    .default(0.3)
    .describe('memories whose event time lies in the past period the question names ("last Saturday") gain factor 1 + boost'),
});

const context = section({
  enabled: flag().default(true),
  weight: fraction()
    .default(0.5)
    .describe("share of an anchor's score given to its session neighbours (chosen on both dev sets, docs/recall-quality.md)"),
  window: num({ int: true, min: 0, max: 5 }).default(2).describe('session neighbours on each side of an anchor (memories)'),
  anchors: num({ int: true, min: 0, max: 100 }).default(20).describe('top results whose neighbours gain weight'),
  similarityGate: flag().default(true).describe("scale a neighbour's gain by its similarity to the question relative to its anchor's"),
});

const rerank = section({
  enabled: flag().default(true),
  topN: num({ int: true, min: 1 }).default(20).describe('results reranked (the head of the ranking)'),
  timeoutMs: num({ above: 0 }).default(2_000).describe('milliseconds; on timeout the ranking is kept'),
  scoreWeight: fraction().default(0.7).describe('weight of the ranked score in the reranked score'),
  similarityWeight: fraction().default(0.3).describe('weight of the query/memory similarity in the reranked score'),
});

const learnedRank = section({
  enabled: flag()
    .default(false)
    .describe(
      'after the rerank, re-score the head of the ranking with a logistic model over the explanation (src/recall/learned-rank-weights.ts: its features, weights and the data they were fitted on); off unless leave-one-family-out shows a gain on both dev sets (docs/recall-quality.md)',
    ),
  topN: num({ int: true, min: 1, max: 100 })
    .default(50)
    .describe('results re-scored (the head of the ranking); the rest follow in their order'),
});

const filters = section({
  minImportance: fraction().default(0).describe('memories below this importance are left out'),
});

const memoryTypes = 'must be a list of memory types';
const budget = section({
  tokenBudget: num({ int: true, min: 1 }, 'a positive integer or null')
    .nullable()
    .default(2_000)
    .describe('tokens of the selected results; null: no token budget'),
  limit: num({ int: true, min: 1 }).default(10).describe('results returned, at most maxLimit'),
  maxLimit: num({ int: true, min: 1 }).default(100).describe('the largest limit a request may ask for'),
  priorityTypes: z
    .array(z.string({ invalid_type_error: memoryTypes }), { invalid_type_error: memoryTypes })
    .default(['procedural', 'preference'])
    .describe('memory types that claim the token budget first'),
});

const fields = z
  .object(
    {
      legs: legs.default({}),
      fusion: fusion.default({}),
      overFetchFactor: num({ min: 1 }).default(4).describe('candidates fetched per leg = limit × this (room for filters and reranking)'),
      keywordContext: keywordContext.default({}),
      entityLeg: entityLeg.default({}),
      graph: graph.default({}),
      dampening: dampening.default({}),
      recency: recency.default({}),
      importance: importance.default({}),
      validity: validity.default({}),
      time: time.default({}),
      context: context.default({}),
      rerank: rerank.default({}),
      learnedRank: learnedRank.default({}),
      filters: filters.default({}),
      budget: budget.default({}),
    },
    { invalid_type_error: 'must be an object' },
  )
  .strict();

/** A refusal that is a whole sentence of its own rather than "<field> must be …". */
const WHOLE_SENTENCE = 'wholeSentence';

export const recallSettingsSchema = fields.superRefine((s, ctx) => {
  if (s.budget.limit > s.budget.maxLimit) {
    ctx.addIssue({ code: 'custom', path: ['budget', 'limit'], message: `must be an integer in [1, ${s.budget.maxLimit}]` });
  }
  if (!s.legs.vector && !s.legs.keyword && !s.legs.hints) {
    ctx.addIssue({
      code: 'custom',
      path: ['legs'],
      message: 'recall needs at least one leg (legs.vector, legs.keyword or legs.hints)',
      params: { [WHOLE_SENTENCE]: true },
    });
  }
});

export type RecallSettings = z.output<typeof recallSettingsSchema>;
export type FusionMethod = RecallSettings['fusion']['method'];
export type KeywordNormalization = RecallSettings['fusion']['keywordNormalization'];
/** What weighted fusion does when a candidate has only one leg score: use it alone, or count the other as 0. */
export type MissingLegPolicy = RecallSettings['fusion']['missingLeg'];

export type DeepPartial<T> = {
  [K in keyof T]?: T[K] extends readonly unknown[] ? T[K] : T[K] extends object ? DeepPartial<T[K]> : T[K];
};

/** Any part of the settings: a recipe, the environment's values, a request's overrides. */
export type RecallSettingsOverrides = DeepPartial<RecallSettings>;

/** Whole settings (or any part, the rest defaulted) checked against the schema; ValidationError names the first refusal. */
export function parseRecallSettings(input: unknown): RecallSettings {
  const result = recallSettingsSchema.safeParse(input);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const path = issue.path.join('.');
  if (issue.code === 'unrecognized_keys') {
    const unknown = [...issue.path, issue.keys[0]].join('.');
    throw new ValidationError(`unknown recall setting ${unknown}`, { path: unknown });
  }
  if (issue.code === 'custom' && issue.params?.[WHOLE_SENTENCE]) throw new ValidationError(issue.message, { path });
  const value = issue.path.reduce<unknown>(
    (at, key) => (typeof at === 'object' && at !== null ? (at as Record<PropertyKey, unknown>)[key] : undefined),
    input,
  );
  const subject = path ? `recall setting ${path}` : 'recall settings';
  throw new ValidationError(`${subject} ${issue.message} (got ${String(value)})`, { path, value });
}

/** The fields of each section, for the environment variables that set one (config/schema.ts). */
export const recallSettingFields = { graph: graph.shape, rerank: rerank.shape };

/** The default settings (frozen: resolve a recipe for a copy to change). */
export const DEFAULT_RECALL_SETTINGS: RecallSettings = deepFreeze(recallSettingsSchema.parse({}));

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}
