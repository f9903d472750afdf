import type { Executor } from '../executor.js';

/**
 * Nearest chunks through the vector index. Neo4j's cosine index scores (1 + cos) / 2; callers
 * get the cosine back. Neo4j 5 cannot pre-filter a vector query, so the namespace is applied
 * to an over-fetched result.
 */
const NEAREST_MEMORIES = `
UNWIND range(0, size($vectors) - 1) AS i
CALL db.index.vector.queryNodes('chunk_embedding', $k, $vectors[i]) YIELD node, score
WHERE node.namespace = $namespace
MATCH (m:Memory)-[:HAS_CHUNK]->(node)
WHERE m.deletedAt IS NULL
RETURN i, m.id AS memoryId, m.contentHash AS contentHash, max(score) AS score`;

export interface NearestHit {
  memoryId: string;
  /** The memory's content when it was read (dedup re-checks it inside the write). */
  contentHash: string;
  cosine: number;
}

/** For each vector, the closest live memories of the namespace (best chunk per memory). */
export async function nearestMemories(executor: Executor, namespace: string, vectors: number[][], k: number): Promise<NearestHit[][]> {
  const hits: NearestHit[][] = vectors.map(() => []);
  if (vectors.length === 0) return hits;
  const rows = await executor.read<{ i: number; memoryId: string; contentHash: string; score: number }>('chunks.nearest', NEAREST_MEMORIES, { vectors, namespace, k });
  for (const row of rows) hits[row.i]!.push({ memoryId: row.memoryId, contentHash: row.contentHash, cosine: 2 * row.score - 1 });
  for (const list of hits) list.sort((a, b) => b.cosine - a.cosine);
  return hits;
}
