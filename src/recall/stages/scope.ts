import type { Executor } from '../../db/index.js';
import { filteredMemoryIds } from '../../db/search/index.js';
import type { LegHit } from '../candidates.js';
import type { MemoryFilters, RecallFilters } from './filter.js';

/** What the scope reads of a request (plan.ts resolves it). */
export interface ScopeRequest {
  namespace: string;
  scoped: boolean;
  filters: RecallFilters;
  memoryFilters: MemoryFilters;
  include: { includeDeleted: boolean; includeSuperseded: boolean; includeCompressed: boolean };
}

/**
 * A filter never hides a match that exists. The legs take the top `limit × overFetchFactor` of
 * the namespace, so filtering their union afterwards could answer three results where the
 * session holds thirty. Two rules, in this order:
 *
 * - the scope: when the request filters (session, types, tags, time, minimum importance), the
 *   memories that pass are listed first (db/search/scope.ts; a session by index seek, the other
 *   filters by reading at most SCOPE_SCAN memories of the namespace) and, when they are at most
 *   SCOPE_CAP, every leg is confined to them: the vector leg exactly over their chunks, the keyword
 *   and hint legs over the full-text hits in them, the entity leg in its Cypher;
 * - widening: otherwise (a broad filter, a namespace too large to read, or what the hydration
 *   drops: superseded, compressed), while the filtered list is shorter than the limit and a leg
 *   came back full, the legs run again with WIDEN_FACTOR times the candidates, up to
 *   MAX_WIDENED_FETCH per leg.
 *
 * Failure rule: when the scope cannot be read, the legs widen instead (recall-service.ts).
 */
export const SCOPE_CAP = 2_000;
export const SCOPE_SCAN = 20_000;
/** Full-text hits read to find the scope's (the scope confines the hits, not the Lucene query). */
export const SCOPED_KEYWORD_BOUND = 5_000;
export const WIDEN_FACTOR = 4;
export const MAX_WIDENED_FETCH = 4_000;

/** The ids of the memories that pass the plan's filters, or null when they are too many to list (widening then). */
export async function filterScope(executor: Executor, plan: ScopeRequest): Promise<string[] | null> {
  if (!plan.scoped) return null;
  const { filters, memoryFilters, include } = plan;
  const { ids, complete } = await filteredMemoryIds(
    executor,
    {
      namespace: plan.namespace,
      sessionId: filters.sessionId ?? null,
      types: filters.types ?? null,
      tags: filters.tags ?? null,
      occurredAfter: isoOrNull(filters.occurredAfter),
      occurredBefore: isoOrNull(filters.occurredBefore),
      minImportance: (memoryFilters.minImportance ?? 0) > 0 ? memoryFilters.minImportance! : null,
      ...include,
    },
    { cap: SCOPE_CAP + 1, scan: SCOPE_SCAN },
  );
  return complete && ids.length <= SCOPE_CAP ? ids : null;
}

/**
 * Whether the legs should run again, wider: the filtered list is short of the limit while a leg
 * returned all it was asked for (so it holds more), and the bound is not reached.
 */
export function shouldWiden(
  filtered: number,
  limit: number,
  legs: { vector: readonly LegHit[]; keyword: readonly LegHit[] },
  fetch: number,
): boolean {
  if (filtered >= limit || fetch >= MAX_WIDENED_FETCH) return false;
  return distinct(legs.vector) >= fetch || distinct(legs.keyword) >= fetch;
}

export function widen(fetch: number): number {
  return Math.min(MAX_WIDENED_FETCH, fetch * WIDEN_FACTOR);
}

function distinct(hits: readonly LegHit[]): number {
  return new Set(hits.map((h) => h.memoryId)).size;
}

/** Filters' times as stored (ISO 8601 UTC); an unreadable one filters nothing, as the in-memory filter does. */
function isoOrNull(value: string | null | undefined): string | null {
  if (!value) return null;
  const time = Date.parse(value);
  return Number.isFinite(time) ? new Date(time).toISOString() : null;
}
