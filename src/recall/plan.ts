import { ValidationError } from '../errors.js';
import type { RecallSettings } from './settings/index.js';
import type { MemoryFilters, RecallFilters } from './stages/filter.js';
import { queryTimeWindow, type TimeWindow } from './stages/time.js';

const MAX_QUERY_CHARS = 4_000;
const MAX_TOKEN_BUDGET = 100_000;
/** How far after `asOf` a memory's event time may lie and still count (time zones). */
export const AS_OF_GRACE_MS = 24 * 3_600_000;

export type { RecallFilters } from './stages/filter.js';

/** A recall request checked and resolved once: everything the stages read. */
export interface RecallPlan {
  query: string;
  namespace: string;
  settings: RecallSettings;
  limit: number;
  tokenBudget: number | null;
  /** The time the question is asked; `explicit` when the caller gave it. */
  asOf: { time: Date; explicit: boolean };
  filters: RecallFilters;
  memoryFilters: MemoryFilters;
  include: { includeDeleted: boolean; includeSuperseded: boolean; includeCompressed: boolean };
  /** Candidates each leg fetches (widened when filters leave fewer than the limit: recall/scope.ts). */
  fetch: number;
  /** The request filters by session, type, tag, time or importance: the legs are confined to what passes (recall/scope.ts). */
  scoped: boolean;
  /** The past period the question names ("last Saturday"), resolved against asOf. */
  timeWindow: TimeWindow | null;
}

export function planRecall(
  request: {
    query: string;
    namespace: string;
    limit?: number | null;
    tokenBudget?: number | null;
    filters?: RecallFilters | null;
    asOf?: string | Date | null;
  },
  settings: RecallSettings,
): RecallPlan {
  const query = request.query.trim();
  if (!query) throw new ValidationError('query must not be empty', { field: 'query' });
  if (query.length > MAX_QUERY_CHARS) throw new ValidationError(`query is longer than ${MAX_QUERY_CHARS} characters`, { field: 'query' });
  const limit = request.limit ?? settings.budget.limit;
  if (!Number.isInteger(limit) || limit < 1 || limit > settings.budget.maxLimit) {
    throw new ValidationError(`limit must be between 1 and ${settings.budget.maxLimit}`, { field: 'limit' });
  }
  const tokenBudget = request.tokenBudget === undefined ? settings.budget.tokenBudget : request.tokenBudget;
  if (tokenBudget !== null && (!Number.isInteger(tokenBudget) || tokenBudget < 1 || tokenBudget > MAX_TOKEN_BUDGET)) {
    throw new ValidationError(`tokenBudget must be between 1 and ${MAX_TOKEN_BUDGET}`, { field: 'tokenBudget' });
  }
  const asOf = parseAsOf(request.asOf);
  const filters = asOf.explicit ? capOccurredBefore(request.filters ?? {}, asOf.time) : (request.filters ?? {});
  return {
    query,
    namespace: request.namespace,
    settings,
    limit,
    tokenBudget,
    asOf,
    filters,
    memoryFilters: { ...filters, minImportance: filters.minImportance ?? settings.filters.minImportance },
    include: {
      includeDeleted: !!filters.includeDeleted,
      includeSuperseded: !!filters.includeSuperseded,
      includeCompressed: !!filters.includeCompressed,
    },
    fetch: limit * settings.overFetchFactor,
    scoped: hasScopingFilter(request.filters),
    timeWindow: settings.time.enabled ? queryTimeWindow(query, asOf.time) : null,
  };
}

/** Whether the request names a filter the scope lists (recall/scope.ts); the asOf cap alone does not (it is widened). */
export function hasScopingFilter(filters: RecallFilters | null | undefined): boolean {
  if (!filters) return false;
  return Boolean(
    filters.sessionId ||
      filters.types?.length ||
      filters.tags?.length ||
      filters.occurredAfter ||
      filters.occurredBefore ||
      (filters.minImportance ?? 0) > 0,
  );
}

function parseAsOf(value: string | Date | null | undefined): { time: Date; explicit: boolean } {
  if (value === null || value === undefined) return { time: new Date(), explicit: false };
  const time = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(time.getTime())) throw new ValidationError('asOf must be an ISO 8601 date-time', { field: 'asOf' });
  return { time, explicit: true };
}

/**
 * A question asked at `asOf` cannot be answered by what happened after it. Times often come
 * without a zone (clients, imports), so the cut is a day after asOf: a memory of the same
 * local day is never lost to a time-zone shift.
 */
function capOccurredBefore(filters: RecallFilters, asOf: Date): RecallFilters {
  const cut = asOf.getTime() + AS_OF_GRACE_MS;
  const before = filters.occurredBefore ? Date.parse(filters.occurredBefore) : Number.POSITIVE_INFINITY;
  return before <= cut ? filters : { ...filters, occurredBefore: new Date(cut).toISOString() };
}
