import { int } from 'neo4j-driver';
import type { Executor } from '../executor.js';

/**
 * Namespace-exact nearest memories, the one place every vector candidate comes from (recall's
 * vector leg, semantic dedup and novelty, the deep path's decision candidates).
 *
 * One vector index holds every namespace; it is created `WITH [c.namespace]` (migration 017), so
 * Cypher 25's `SEARCH … WHERE c.namespace = $namespace` filters inside the index: the answer is
 * the namespace's nearest chunks, whatever other tenants hold, in one index search per query
 * vector (a batch's vectors in one statement, one search per row). The index returns chunks; a
 * memory may own several, and deleted or excluded memories are dropped after the search, so it is
 * asked for `OVERFETCH` × what is wanted. When that still leaves a vector short of `limit`
 * memories while the index had more to give, only that vector searches again, wider.
 * Scores are the index's, (1 + cos) / 2.
 */

const OVERFETCH = 2;
const MIN_INDEX_K = 10;
export const MAX_INDEX_K = 4_000;
const WIDEN_FACTOR = 4;

export const VECTOR_SEARCH = `
UNWIND range(0, size($vectors) - 1) AS i
MATCH (c:Chunk)
  SEARCH c IN (VECTOR INDEX chunk_embedding FOR $vectors[i] WHERE c.namespace = $namespace LIMIT $k) SCORE AS score
OPTIONAL MATCH (m:Memory)-[:HAS_CHUNK]->(c)
WHERE ($includeDeleted OR m.deletedAt IS NULL) AND NOT m.id IN $exclude
WITH i, m, max(score) AS score, count(c) AS chunks
ORDER BY i, score DESC
WITH i, sum(chunks) AS found, collect(CASE WHEN m IS NOT NULL THEN {memoryId: m.id, contentHash: m.contentHash, score: score} END) AS hits
RETURN i, found, hits[0..toInteger($limit)] AS hits`;

export interface VectorHit {
  memoryId: string;
  /** The memory's content hash when it was read (dedup re-checks it inside the write). */
  contentHash: string;
  /** (1 + cos) / 2, the vector index's scale. */
  score: number;
}

export interface VectorSearchOptions {
  namespace: string;
  /** Memories wanted per query vector (best chunk per memory). */
  limit: number;
  includeDeleted?: boolean;
  /** Memory ids that must not come back. */
  exclude?: readonly string[];
}

export type VectorSearchPath = 'index' | 'widened';

export interface VectorSearchResult {
  /** Per query vector, the namespace's nearest memories, best first. */
  hits: VectorHit[][];
  /** How the answer was found (for timings and tests). */
  path: VectorSearchPath;
}

/** Chunks asked of the index for `limit` memories when `excluded` may be dropped. */
export function firstK(limit: number, excluded: number): number {
  return Math.min(MAX_INDEX_K, Math.max(MIN_INDEX_K, (limit + excluded) * OVERFETCH));
}

export async function nearestInNamespace(
  executor: Executor,
  vectors: readonly (readonly number[])[],
  options: VectorSearchOptions,
): Promise<VectorSearchResult> {
  if (vectors.length === 0 || options.limit < 1) return { hits: vectors.map(() => []), path: 'index' };
  const params = {
    namespace: options.namespace,
    limit: Math.floor(options.limit),
    includeDeleted: options.includeDeleted ?? false,
    exclude: [...(options.exclude ?? [])],
    vectors: vectors.map((v) => [...v]),
  };
  let k = firstK(params.limit, params.exclude.length);
  const { hits, found } = await search(executor, vectors.length, { ...params, k: int(k) });
  // Short of `limit` although the index filled all k: chunks of the same, deleted or excluded
  // memories took the places. Only those vectors search again, wider.
  let short = hits.flatMap((h, i) => (h.length < params.limit && found[i] === k ? [i] : []));
  if (short.length === 0) return { hits, path: 'index' };
  while (short.length > 0 && k < MAX_INDEX_K) {
    k = Math.min(MAX_INDEX_K, k * WIDEN_FACTOR);
    const again = await search(executor, short.length, { ...params, k: int(k), vectors: short.map((i) => params.vectors[i]!) });
    short.forEach((i, j) => (hits[i] = again.hits[j]!));
    short = short.filter((i, j) => hits[i]!.length < params.limit && again.found[j] === k);
  }
  return { hits, path: 'widened' };
}

async function search(
  executor: Executor,
  count: number,
  params: Record<string, unknown>,
): Promise<{ hits: VectorHit[][]; found: number[] }> {
  const rows = await executor.read<{ i: number; found: number; hits: VectorHit[] }>('vectors.search', VECTOR_SEARCH, params);
  const hits: VectorHit[][] = Array.from({ length: count }, () => []);
  const found: number[] = Array.from({ length: count }, () => 0);
  for (const row of rows) {
    hits[row.i] = row.hits;
    found[row.i] = row.found;
  }
  return { hits, found };
}
