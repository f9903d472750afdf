import type { Executor } from '../../db/index.js';

// The first chunk's stored vector stands for a memory in the embedding reranker: no model call.
const FIRST_CHUNK_VECTORS = `
UNWIND $ids AS id
MATCH (:Memory {id: id})-[:HAS_CHUNK]->(c:Chunk {index: 0})
RETURN id AS memoryId, c.embedding AS embedding`;

export async function memoryVectors(executor: Executor, ids: string[]): Promise<Map<string, number[]>> {
  if (ids.length === 0) return new Map();
  const rows = await executor.read<{ memoryId: string; embedding: number[] }>('recall.vectors', FIRST_CHUNK_VECTORS, { ids });
  return new Map(rows.map((r) => [r.memoryId, r.embedding]));
}
