import type { Executor } from '../executor.js';

/**
 * Namespace-exact nearest memories, the one place every vector candidate comes from (recall's
 * vector leg, semantic dedup and novelty, the deep path's decision candidates).
 *
 * Neo4j 5.26's vector index cannot filter by property, and one index holds every namespace, so
 * "top k of the index, then keep the namespace" lets other tenants crowd a namespace out. Here:
 * 1. the index is asked for `k × OVERFETCH` chunks and the namespace's are kept. When that yields
 *    `k` memories they are the namespace's exact top k (every closer chunk of the namespace
 *    would have been among the index's answer) — the usual case for a large namespace;
 * 2. otherwise the namespace is a small part of the index: its chunks are scanned exactly
 *    (range index on Chunk.namespace, `vector.similarity.cosine`) while chunks × query vectors
 *    stays within `EXACT_SCAN_BUDGET`;
 * 3. a namespace too large to scan but crowded out of step 1 widens the index search up to
 *    `MAX_INDEX_K` (approximate at that point; README "Tenant isolation" has the figures).
 * Scores are on the index's scale, (1 + cos) / 2, in both paths.
 */

const OVERFETCH = 2;
const MIN_INDEX_K = 50;
export const MAX_INDEX_K = 4_000;
const WIDEN_FACTOR = 4;
/**
 * Chunk × query-vector comparisons one exact scan may make: `vector.similarity.cosine` over 5,000
 * chunks took 0.6–0.9 s on the 2-core machine at load average 30 (README "Tenant isolation").
 */
export const EXACT_SCAN_BUDGET = 5_000;

const INDEX_SEARCH = `
UNWIND range(0, size($vectors) - 1) AS i
CALL db.index.vector.queryNodes('chunk_embedding', toInteger($k), $vectors[i]) YIELD node, score
WHERE node.namespace = $namespace
MATCH (m:Memory)-[:HAS_CHUNK]->(node)
WHERE ($includeDeleted OR m.deletedAt IS NULL) AND NOT m.id IN $exclude
WITH i, m, max(score) AS score
ORDER BY i, score DESC
WITH i, collect({memoryId: m.id, contentHash: m.contentHash, score: score})[0..toInteger($limit)] AS hits
RETURN i, hits`;

const NAMESPACE_CHUNKS = `
MATCH (c:Chunk {namespace: $namespace})
WITH c LIMIT toInteger($cap)
RETURN count(c) AS chunks`;

const EXACT_SCAN = `
MATCH (m:Memory)-[:HAS_CHUNK]->(c:Chunk {namespace: $namespace})
WHERE ($includeDeleted OR m.deletedAt IS NULL) AND NOT m.id IN $exclude AND c.embedding IS NOT NULL
UNWIND range(0, size($vectors) - 1) AS i
WITH i, m, max(vector.similarity.cosine(c.embedding, $vectors[i])) AS score
ORDER BY i, score DESC
WITH i, collect({memoryId: m.id, contentHash: m.contentHash, score: score})[0..toInteger($limit)] AS hits
RETURN i, hits`;

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

export type VectorSearchPath = 'index' | 'exact' | 'widened';

export interface VectorSearchResult {
  /** Per query vector, the namespace's nearest memories, best first. */
  hits: VectorHit[][];
  /** How the answer was found (for timings and tests). */
  path: VectorSearchPath;
}

export async function nearestInNamespace(executor: Executor, vectors: readonly (readonly number[])[], options: VectorSearchOptions): Promise<VectorSearchResult> {
  if (vectors.length === 0 || options.limit < 1) return { hits: vectors.map(() => []), path: 'index' };
  const params = {
    namespace: options.namespace,
    limit: options.limit,
    includeDeleted: options.includeDeleted ?? false,
    exclude: [...(options.exclude ?? [])],
  };
  const wanted = options.limit + params.exclude.length;
  let k = Math.min(MAX_INDEX_K, Math.max(MIN_INDEX_K, wanted * OVERFETCH));
  let hits = await indexSearch(executor, vectors, { ...params, k });
  if (complete(hits, options.limit)) return { hits, path: 'index' };

  const cap = Math.floor(EXACT_SCAN_BUDGET / vectors.length);
  const [{ chunks } = { chunks: 0 }] = await executor.read<{ chunks: number }>('vectors.namespaceChunks', NAMESPACE_CHUNKS, { namespace: options.namespace, cap: cap + 1 });
  if (chunks <= cap) {
    return { hits: collectHits(vectors.length, await executor.read('vectors.exact', EXACT_SCAN, { ...params, vectors: vectors.map((v) => [...v]) })), path: 'exact' };
  }
  while (!complete(hits, options.limit) && k < MAX_INDEX_K) {
    k = Math.min(MAX_INDEX_K, k * WIDEN_FACTOR);
    hits = await indexSearch(executor, vectors, { ...params, k });
  }
  return { hits, path: 'widened' };
}

async function indexSearch(executor: Executor, vectors: readonly (readonly number[])[], params: Record<string, unknown>): Promise<VectorHit[][]> {
  return collectHits(vectors.length, await executor.read('vectors.index', INDEX_SEARCH, { ...params, vectors: vectors.map((v) => [...v]) }));
}

function collectHits(count: number, rows: ReadonlyArray<Record<string, unknown>>): VectorHit[][] {
  const hits: VectorHit[][] = Array.from({ length: count }, () => []);
  for (const row of rows) hits[row.i as number] = row.hits as VectorHit[];
  return hits;
}

function complete(hits: VectorHit[][], limit: number): boolean {
  return hits.every((h) => h.length >= limit);
}
