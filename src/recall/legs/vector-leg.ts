import type { Executor } from '../../db/index.js';
import type { LegHit } from '../candidates.js';

// Neo4j 5 cannot pre-filter a vector query by namespace, so the leg over-fetches and, when the
// namespace is a small part of the index, asks again with a larger k (bounded).
const VECTOR_LEG = `
CALL db.index.vector.queryNodes('chunk_embedding', $k, $vector) YIELD node, score
WHERE node.namespace = $namespace
MATCH (m:Memory)-[:HAS_CHUNK]->(node)
WHERE $includeDeleted OR m.deletedAt IS NULL
RETURN m.id AS memoryId, max(score) AS score
ORDER BY score DESC
LIMIT toInteger($limit)`;

const MAX_K = 4_000;
const WIDEN_FACTOR = 4;

export interface VectorLegOptions {
  namespace: string;
  vector: number[];
  limit: number;
  includeDeleted: boolean;
}

/** Best chunk per memory through the `chunk_embedding` index; scores are (1 + cos) / 2. */
export async function vectorLeg(executor: Executor, options: VectorLegOptions): Promise<LegHit[]> {
  let k = Math.min(MAX_K, options.limit * 2);
  for (;;) {
    const rows = await executor.read<{ memoryId: string; score: number }>('recall.vector', VECTOR_LEG, { ...options, k });
    if (rows.length >= options.limit || k >= MAX_K) return rows;
    k = Math.min(MAX_K, k * WIDEN_FACTOR);
  }
}
