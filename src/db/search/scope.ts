import type { Executor } from '../executor.js';
import type { ScoredMemory } from './keyword.js';

/**
 * Recall and search with a filter (session, types, tags, time, importance): the memories of the
 * namespace that pass it (the scope), then the legs confined to them, so a narrow filter is
 * answered from the memories it names instead of from the namespace's top candidates. The
 * session's memories are found by index seek (namespace, sessionId); the other filters read the
 * namespace's memories, at most `scan` of them (recall/scope.ts widens the legs beyond that).
 * Times are ISO 8601 strings, compared as stored (bounds inclusive, occurredAt else createdAt).
 */

const PASSES_FILTERS = `($includeDeleted OR m.deletedAt IS NULL)
  AND ($includeSuperseded OR m.supersededAt IS NULL)
  AND ($includeCompressed OR m.compressedAt IS NULL)
  AND ($types IS NULL OR m.type IN $types)
  AND ($tags IS NULL OR all(tag IN $tags WHERE tag IN coalesce(m.tags, [])))
  AND ($occurredAfter IS NULL OR coalesce(m.occurredAt, m.createdAt) >= $occurredAfter)
  AND ($occurredBefore IS NULL OR coalesce(m.occurredAt, m.createdAt) <= $occurredBefore)
  AND ($minImportance IS NULL OR m.importance >= $minImportance OR coalesce(m.pinned, false) OR m.type = 'decision'
       OR EXISTS { (m)<-[:FROM]-(:Attribute {kind: 'constraint', status: 'active'}) })`;

export const SESSION_SCOPE = `
MATCH (m:Memory {namespace: $namespace, sessionId: $sessionId})
WHERE ${PASSES_FILTERS}
RETURN m.id AS id
LIMIT toInteger($cap)`;

// Through the (namespace, createdAt) index: the LIMIT alone let the planner prefer a label scan.
export const NAMESPACE_SCOPE = `
MATCH (m:Memory)
USING INDEX m:Memory(namespace, createdAt)
WHERE m.namespace = $namespace AND m.createdAt IS NOT NULL
WITH m LIMIT toInteger($scan)
WITH count(m) AS scanned, collect(CASE WHEN ${PASSES_FILTERS} THEN m.id END) AS ids
RETURN scanned, ids[0..toInteger($cap)] AS ids`;

/**
 * The vector leg inside the scope: each memory's best chunk, exact, on the index's scale (1 + cos) / 2;
 * chunks of another length than the query vector (not re-embedded yet after a model switch) left out, as the index does.
 */
export const SCOPED_VECTOR = `
UNWIND $ids AS id
MATCH (m:Memory {id: id})-[:HAS_CHUNK]->(c:Chunk)
WHERE size(c.embedding) = size($vector)
WITH m, max(vector.similarity.cosine(c.embedding, $vector)) AS score
RETURN m.id AS memoryId, score
ORDER BY score DESC, memoryId
LIMIT toInteger($limit)`;

/** The keyword leg inside the scope: the full-text hits (up to `bound`) that are in it. */
export const SCOPED_KEYWORD = `
CALL db.index.fulltext.queryNodes('memory_content', $query, {limit: toInteger($bound)}) YIELD node, score
WHERE node.id IN $ids
RETURN node.id AS memoryId, score
ORDER BY score DESC, memoryId
LIMIT toInteger($limit)`;

export const SCOPED_HINTS = `
CALL db.index.fulltext.queryNodes('hint_text', $query, {limit: toInteger($bound)}) YIELD node, score
MATCH (node)-[:HINT_OF]->(m:Memory)
WHERE m.id IN $ids
WITH m, max(score) AS score
RETURN m.id AS memoryId, score
ORDER BY score DESC, memoryId
LIMIT toInteger($limit)`;

export interface ScopeFilters {
  namespace: string;
  sessionId: string | null;
  types: readonly string[] | null;
  tags: readonly string[] | null;
  occurredAfter: string | null;
  occurredBefore: string | null;
  minImportance: number | null;
  includeDeleted: boolean;
  includeSuperseded: boolean;
  includeCompressed: boolean;
}

/** The ids of the scope, at most `cap`; `complete` is false when the namespace had more than `scan` memories to read. */
export async function filteredMemoryIds(
  executor: Executor,
  filters: ScopeFilters,
  bounds: { cap: number; scan: number },
): Promise<{ ids: string[]; complete: boolean }> {
  const params = {
    ...filters,
    types: filters.types?.length ? [...filters.types] : null,
    tags: filters.tags?.length ? [...filters.tags] : null,
    cap: bounds.cap,
    scan: bounds.scan,
  };
  if (filters.sessionId !== null) {
    const rows = await executor.read<{ id: string }>('recall.scope.session', SESSION_SCOPE, params);
    return { ids: rows.map((r) => r.id), complete: true };
  }
  const [row] = await executor.read<{ scanned: number; ids: string[] }>('recall.scope.namespace', NAMESPACE_SCOPE, params);
  return { ids: row?.ids ?? [], complete: Number(row?.scanned ?? 0) < bounds.scan };
}

export async function scopedVectorMatches(
  executor: Executor,
  search: { ids: readonly string[]; vector: readonly number[]; limit: number },
): Promise<ScoredMemory[]> {
  return executor.read<ScoredMemory>('recall.scope.vector', SCOPED_VECTOR, {
    ids: [...search.ids],
    vector: [...search.vector],
    limit: search.limit,
  });
}

const SCOPED_FULL_TEXT = {
  keyword: ['recall.scope.keyword', SCOPED_KEYWORD],
  hints: ['recall.scope.hints', SCOPED_HINTS],
} as const;

/** `query`: a Lucene query confined to the namespace (recall/stages/keyword-leg.ts); `reading`: which full-text index. */
export async function scopedKeywordMatches(
  executor: Executor,
  search: { ids: readonly string[]; query: string; limit: number; bound: number; reading: keyof typeof SCOPED_FULL_TEXT },
): Promise<ScoredMemory[]> {
  const [operation, cypher] = SCOPED_FULL_TEXT[search.reading];
  return executor.read<ScoredMemory>(operation, cypher, {
    ids: [...search.ids],
    query: search.query,
    limit: search.limit,
    bound: search.bound,
  });
}
