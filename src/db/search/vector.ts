import type { Executor } from '../executor.js';

/**
 * Namespace-exact nearest memories, the one place every vector candidate comes from (recall's
 * vector leg, semantic dedup and novelty, the deep path's decision candidates).
 *
 * Neo4j 5.26's vector index cannot filter by property and one index holds every namespace, so
 * the cost of "the namespace's top k" must follow the namespace, not the store. The plan is
 * chosen up front from the namespace's share of the index (counts cached per namespace):
 * - an exact scan of the namespace (range index on Chunk.namespace, `vector.similarity.cosine`):
 *   one round trip, cost ∝ the namespace's chunks × query vectors;
 * - or the index, asked for `k ≈ wanted × OVERFETCH / share` chunks, keeping the namespace's;
 * whichever costs less. When the index yields `wanted` memories they are the namespace's top k
 * (every closer chunk of the namespace was among its answer); when other tenants' near-copies
 * crowd it out, `k` widens up to `MAX_INDEX_K` (approximate at that point).
 * Scores are on the index's scale, (1 + cos) / 2, in both paths. The cached counts only pick the
 * plan; a stale count costs time, never a wrong answer.
 */

const OVERFETCH = 2;
const MIN_INDEX_K = 50;
export const MAX_INDEX_K = 4_000;
const WIDEN_FACTOR = 4;
/**
 * Relative costs, measured on a shared store (`npm run bench:shared-store`; docs/speed.md, speed in a shared store): an
 * exact scan pays for reading each chunk's vector and then for each comparison; an index search
 * pays a fixed cost per query vector and then for each candidate it returns.
 */
const SCAN_COST = { perChunk: 6, perComparison: 1 };
const INDEX_COST = { perVector: 1_400, perCandidate: 2 };
/** Below this (chunks × query vectors) the scan is taken without weighing: a few milliseconds. */
export const EXACT_SCAN_BUDGET = 5_000;
/** How long a namespace's chunk count is trusted for planning. */
const STATS_TTL_MS = 30 * 1000;
const STATS_CACHE_MAX = 10_000;

export const INDEX_SEARCH = `
UNWIND range(0, size($vectors) - 1) AS i
CALL db.index.vector.queryNodes('chunk_embedding', toInteger($k), $vectors[i]) YIELD node, score
WHERE node.namespace = $namespace
MATCH (m:Memory)-[:HAS_CHUNK]->(node)
WHERE ($includeDeleted OR m.deletedAt IS NULL) AND NOT m.id IN $exclude
WITH i, m, max(score) AS score
ORDER BY i, score DESC
WITH i, collect({memoryId: m.id, contentHash: m.contentHash, score: score})[0..toInteger($limit)] AS hits
RETURN i, hits`;

export const NAMESPACE_CHUNKS = `
MATCH (c:Chunk {namespace: $namespace})
RETURN count(c) AS chunks`;

/** Answered from the count store: no scan. */
export const ALL_CHUNKS = `
MATCH (c:Chunk)
RETURN count(c) AS chunks`;

export const EXACT_SCAN = `
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

export interface IndexStats {
  /** Chunks of the namespace. */
  namespaceChunks: number;
  /** Chunks of every namespace (the shared index's size). */
  totalChunks: number;
}

export type VectorSearchPlan = { path: 'exact' } | { path: 'index'; k: number };

/** Exact scan or index search, whichever costs less for this namespace's share of the index. */
export function planVectorSearch(stats: IndexStats, vectorCount: number, wanted: number): VectorSearchPlan {
  if (stats.namespaceChunks * vectorCount <= EXACT_SCAN_BUDGET) return { path: 'exact' };
  const share = stats.namespaceChunks / Math.max(stats.totalChunks, stats.namespaceChunks);
  const k = Math.min(MAX_INDEX_K, Math.max(MIN_INDEX_K, Math.ceil((wanted * OVERFETCH) / share)));
  const scanCost = stats.namespaceChunks * (SCAN_COST.perChunk + SCAN_COST.perComparison * vectorCount);
  const indexCost = vectorCount * (INDEX_COST.perVector + INDEX_COST.perCandidate * k);
  return indexCost < scanCost ? { path: 'index', k } : { path: 'exact' };
}

export async function nearestInNamespace(
  executor: Executor,
  vectors: readonly (readonly number[])[],
  options: VectorSearchOptions,
): Promise<VectorSearchResult> {
  if (vectors.length === 0 || options.limit < 1) return { hits: vectors.map(() => []), path: 'index' };
  const params = {
    namespace: options.namespace,
    limit: options.limit,
    includeDeleted: options.includeDeleted ?? false,
    exclude: [...(options.exclude ?? [])],
    vectors: vectors.map((v) => [...v]),
  };
  const wanted = options.limit + params.exclude.length;
  const plan = planVectorSearch(await indexStats(executor, options.namespace), vectors.length, wanted);
  if (plan.path === 'exact')
    return { hits: collectHits(vectors.length, await executor.read('vectors.exact', EXACT_SCAN, params)), path: 'exact' };

  let k = plan.k;
  const hits = await indexSearch(executor, vectors.length, { ...params, k });
  let short = incomplete(hits, options.limit);
  if (short.length === 0) return { hits, path: 'index' };
  // Only the vectors other tenants crowded out search again, wider: one crowded vector must not
  // make a whole batch pay for k in the thousands.
  while (short.length > 0 && k < MAX_INDEX_K) {
    k = Math.min(MAX_INDEX_K, k * WIDEN_FACTOR);
    const again = await indexSearch(executor, short.length, { ...params, k, vectors: short.map((i) => params.vectors[i]!) });
    short.forEach((i, j) => (hits[i] = again[j]!));
    short = short.filter((i) => hits[i]!.length < options.limit);
  }
  return { hits, path: 'widened' };
}

async function indexSearch(executor: Executor, count: number, params: Record<string, unknown>): Promise<VectorHit[][]> {
  return collectHits(count, await executor.read('vectors.index', INDEX_SEARCH, params));
}

function collectHits(count: number, rows: ReadonlyArray<Record<string, unknown>>): VectorHit[][] {
  const hits: VectorHit[][] = Array.from({ length: count }, () => []);
  for (const row of rows) hits[row.i as number] = row.hits as VectorHit[];
  return hits;
}

/** Indexes of the query vectors with fewer than `limit` hits. */
function incomplete(hits: VectorHit[][], limit: number): number[] {
  return hits.flatMap((h, i) => (h.length < limit ? [i] : []));
}

// ---------- planning statistics, cached per executor (one per database) ----------

interface CachedStats extends IndexStats {
  at: number;
}

const statsCaches = new WeakMap<Executor, Map<string, CachedStats>>();

async function indexStats(executor: Executor, namespace: string): Promise<IndexStats> {
  let cache = statsCaches.get(executor);
  if (!cache) statsCaches.set(executor, (cache = new Map()));
  const now = Date.now();
  const hit = cache.get(namespace);
  if (hit && now - hit.at < STATS_TTL_MS) return hit;
  const [[ns], [all]] = await Promise.all([
    executor.read<{ chunks: number }>('vectors.namespaceChunks', NAMESPACE_CHUNKS, { namespace }),
    executor.read<{ chunks: number }>('vectors.allChunks', ALL_CHUNKS),
  ]);
  const stats: CachedStats = { namespaceChunks: Number(ns?.chunks ?? 0), totalChunks: Number(all?.chunks ?? 0), at: now };
  if (cache.size >= STATS_CACHE_MAX) cache.delete(cache.keys().next().value!);
  cache.delete(namespace);
  cache.set(namespace, stats);
  return stats;
}

/** Forgets the cached counts (tests that grow a namespace past a plan boundary). */
export function forgetVectorSearchStats(executor: Executor): void {
  statsCaches.delete(executor);
}
