import type { Executor } from '../executor.js';
import { nearestInNamespace } from '../search/index.js';
import { cosineFromIndexScore } from '../vector-scale.js';

export interface NearestHit {
  memoryId: string;
  /** The memory's content when it was read (dedup re-checks it inside the write). */
  contentHash: string;
  cosine: number;
}

/** For each vector, the closest live memories of the namespace (best chunk per memory), exact per namespace. */
export async function nearestMemories(executor: Executor, namespace: string, vectors: number[][], k: number): Promise<NearestHit[][]> {
  const { hits } = await nearestInNamespace(executor, vectors, { namespace, limit: k });
  return hits.map((list) => list.map((h) => ({ memoryId: h.memoryId, contentHash: h.contentHash, cosine: cosineFromIndexScore(h.score) })));
}
