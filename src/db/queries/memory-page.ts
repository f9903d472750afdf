import type { Executor } from '../executor.js';
import { MEMORY_RETURN, type MemoryRecord } from '../records.js';
import { decodeCursor, encodeCursor } from './cursor.js';

/** Filters of `memoriesConnection`; times are ISO 8601 strings, bounds inclusive. */
export interface MemoryListFilters {
  types?: readonly string[] | null;
  /** Memories carrying all of these tags. */
  tags?: readonly string[] | null;
  sessionId?: string | null;
  /** On occurredAt, else createdAt (as recall filters). */
  occurredAfter?: string | null;
  occurredBefore?: string | null;
  /** Pinned memories pass whatever their importance. */
  minImportance?: number | null;
  includeDeleted?: boolean | null;
}

export interface MemoryPageQuery {
  namespace: string;
  filters: MemoryListFilters;
  first: number;
  after?: string | null;
}

export interface MemoryPage {
  edges: Array<{ cursor: string; node: MemoryRecord }>;
  pageInfo: { hasNextPage: boolean; endCursor: string | null };
  totalCount: number;
}

const CURSOR_KIND = 'memory';

const MATCH_FILTERED = `
MATCH (m:Memory {namespace: $namespace})
WHERE ($includeDeleted OR m.deletedAt IS NULL)
  AND ($types IS NULL OR m.type IN $types)
  AND ($tags IS NULL OR all(tag IN $tags WHERE tag IN coalesce(m.tags, [])))
  AND ($sessionId IS NULL OR m.sessionId = $sessionId)
  AND ($occurredAfter IS NULL OR coalesce(m.occurredAt, m.createdAt) >= $occurredAfter)
  AND ($occurredBefore IS NULL OR coalesce(m.occurredAt, m.createdAt) <= $occurredBefore)
  AND ($minImportance IS NULL OR m.importance >= $minImportance OR coalesce(m.pinned, false))`;

export const COUNT_MEMORIES = `${MATCH_FILTERED}
RETURN count(m) AS total`;

// Newest first; the cursor continues strictly after (createdAt, id), so ties never repeat or skip.
export const PAGE_MEMORIES = `${MATCH_FILTERED}
  AND ($afterCreatedAt IS NULL OR m.createdAt < $afterCreatedAt OR (m.createdAt = $afterCreatedAt AND m.id < $afterId))
WITH m ORDER BY m.createdAt DESC, m.id DESC LIMIT toInteger($limit)
RETURN ${MEMORY_RETURN('m')} AS memory`;

/** One page of a namespace's memories, and how many match the filters in all. */
export async function memoriesPage(executor: Executor, query: MemoryPageQuery): Promise<MemoryPage> {
  const after = query.after ? decodeCursor(CURSOR_KIND, query.after, ['string', 'string']) : null;
  const f = query.filters;
  const params = {
    namespace: query.namespace,
    includeDeleted: f.includeDeleted ?? false,
    types: f.types?.length ? [...f.types] : null,
    tags: f.tags?.length ? [...f.tags] : null,
    sessionId: f.sessionId ?? null,
    occurredAfter: f.occurredAfter ?? null,
    occurredBefore: f.occurredBefore ?? null,
    minImportance: f.minImportance ?? null,
    afterCreatedAt: after?.[0] ?? null,
    afterId: after?.[1] ?? null,
    limit: query.first + 1,
  };
  const { total, rows } = await executor.readTx('memories.page', async (tx) => ({
    total: (await tx.run<{ total: number }>(COUNT_MEMORIES, params))[0]?.total ?? 0,
    rows: (await tx.run<{ memory: MemoryRecord }>(PAGE_MEMORIES, params)).map((r) => r.memory),
  }));
  const edges = rows.slice(0, query.first).map((node) => ({ cursor: encodeCursor(CURSOR_KIND, [node.createdAt, node.id]), node }));
  return { edges, pageInfo: { hasNextPage: rows.length > query.first, endCursor: edges.at(-1)?.cursor ?? null }, totalCount: total };
}
