import { z } from 'zod/v3';
import { ValidationError } from '../../errors.js';
import { budgetSettings } from '../stages/budget.js';
import { contextSettings } from '../stages/context.js';
import { entityLegSettings } from '../stages/entity-leg.js';
import { filterSettings } from '../stages/filter.js';
import { fusionSettings } from '../stages/fuse.js';
import { graphSettings } from '../stages/graph-boost.js';
import { importanceSettings } from '../stages/importance.js';
import { keywordStatsSettings } from '../stages/keyword-rescore.js';
import { rerankSettings } from '../stages/rerank.js';
import { resolutionSettings } from '../stages/resolution.js';
import { legsSettings } from '../stages/retrieve.js';
import { timeSettings } from '../stages/time.js';
import { num } from './fields.js';

/**
 * Recall settings: everything that decides what recall runs and how it scores, as one schema.
 * Each stage declares its own section (src/recall/stages/), listed here in the order the
 * orchestrator runs the stages; `recallSettingsSchema.parse({})` is the default settings. Named
 * recipes and the merge of overrides are in recipes.ts; the environment variables that set some
 * of these fields, in env.ts.
 *
 * Fusion and context defaults were chosen on the dev datasets together (npm run bench:locomo --
 * <dirs> --cv, docs/recall-quality.md). Stages that were off by default and did not pay for
 * themselves on the dev sets were deleted with their settings (gravity and hub dampening,
 * recency, validity, the keyword leg's in-context reading, the learned ranking); their figures
 * stay in docs/recall-quality.md.
 */
const fields = z
  .object(
    {
      legs: legsSettings.default({}),
      overFetchFactor: num({ min: 1 }).default(4).describe('candidates fetched per leg = limit × this (room for filters and reranking)'),
      entityLeg: entityLegSettings.default({}),
      graph: graphSettings.default({}),
      keywordStats: keywordStatsSettings.default({}),
      fusion: fusionSettings.default({}),
      resolution: resolutionSettings.default({}),
      time: timeSettings.default({}),
      importance: importanceSettings.default({}),
      context: contextSettings.default({}),
      filters: filterSettings.default({}),
      rerank: rerankSettings.default({}),
      budget: budgetSettings.default({}),
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

/** The default settings (frozen: resolve a recipe for a copy to change). */
export const DEFAULT_RECALL_SETTINGS: RecallSettings = deepFreeze(recallSettingsSchema.parse({}));

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}
