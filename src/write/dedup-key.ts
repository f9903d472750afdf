/** Exact-dedup key of a live memory: unique in the graph (see cypher/001-constraints.cypher). */
export function dedupKey(namespace: string, contentHash: string): string {
  return `${namespace}:${contentHash}`;
}

export interface SimilarMemory {
  existingId: string;
  similarity: number;
}

/** Highest similarity to one existing memory over all chunks (each chunk must match it). */
export function bestWholeMemoryMatch(perChunk: ReadonlyArray<ReadonlyArray<{ memoryId: string; cosine: number }>>): SimilarMemory | null {
  if (perChunk.length === 0) return null;
  const candidates = new Map<string, number>();
  for (const hit of perChunk[0]!) candidates.set(hit.memoryId, hit.cosine);
  for (const hits of perChunk.slice(1)) {
    for (const [id, sim] of candidates) {
      const match = hits.find((h) => h.memoryId === id);
      candidates.set(id, match ? Math.min(sim, match.cosine) : -1);
    }
  }
  let best: SimilarMemory | null = null;
  for (const [id, sim] of candidates) if (!best || sim > best.similarity) best = { existingId: id, similarity: sim };
  return best;
}
