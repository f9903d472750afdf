import type { RecallService } from '../recall/index.js';

type RecallFilters = NonNullable<Parameters<RecallService['recall']>[0]['filters']>;

/** A time as a transport hands it (graphql-scalars' Date, MCP's ISO string) as the ISO string queries compare, in UTC. */
export function iso(value: unknown): string | null {
  if (value == null) return null;
  return value instanceof Date ? value.toISOString() : String(value);
}

/**
 * recall's and search's filters as every transport hands them (GraphQL's RecallFilters, MCP's
 * `filters` renamed): any field may be absent, times may be Dates.
 */
export interface RecallFilterInput {
  sessionId?: string | null;
  types?: readonly string[] | null;
  tags?: readonly string[] | null;
  occurredAfter?: Date | string | null;
  occurredBefore?: Date | string | null;
  minImportance?: number | null;
  includeSuperseded?: boolean | null;
  includeDeleted?: boolean | null;
  includeCompressed?: boolean | null;
}

/** The one mapping of a transport's filters to the recall service's (a filter never hides a match: src/recall/scope.ts). */
export function recallFilters(f: RecallFilterInput | null | undefined): RecallFilters | null {
  if (!f) return null;
  return {
    sessionId: f.sessionId ?? null,
    types: f.types ?? null,
    tags: f.tags ?? null,
    occurredAfter: iso(f.occurredAfter),
    occurredBefore: iso(f.occurredBefore),
    minImportance: f.minImportance ?? null,
    includeSuperseded: f.includeSuperseded ?? null,
    includeDeleted: f.includeDeleted ?? null,
    includeCompressed: f.includeCompressed ?? null,
  };
}
