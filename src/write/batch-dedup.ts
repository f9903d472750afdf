/**
 * Semantic dedup inside one batch. The database's nearest neighbours of a batch item cannot hold
 * the items written with it, so two near-identical items of one `rememberBatch` would both be
 * stored. Each item is therefore also compared with the earlier items of its batch that will be
 * stored, over the batch's own embeddings, and the two lists are merged as one nearest-neighbour
 * answer: the same thresholds then give the same outcome as sending the items one by one (the
 * second is the duplicate, or the near-duplicate, of the first).
 */

/** One neighbour of a chunk: a memory (stored, or an earlier item of the batch) and its best chunk's cosine. */
export interface ChunkNeighbour {
  memoryId: string;
  contentHash: string;
  cosine: number;
}

/** An earlier item of the batch that will be stored: its id (made before the write) and chunk vectors. */
export interface BatchMemory {
  memoryId: string;
  contentHash: string;
  vectors: readonly (readonly number[])[];
}

export function cosine(a: readonly number[], b: readonly number[]): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i += 1) {
    const x = a[i]!;
    const y = b[i]!;
    dot += x * y;
    na += x * x;
    nb += y * y;
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}

/** For each of `vectors`, the earlier batch memories by their best chunk's cosine, best first, at most `k`. */
export function batchNeighbours(vectors: readonly (readonly number[])[], earlier: readonly BatchMemory[], k: number): ChunkNeighbour[][] {
  return vectors.map((vector) =>
    earlier
      .map((m) => ({
        memoryId: m.memoryId,
        contentHash: m.contentHash,
        cosine: Math.max(...m.vectors.map((v) => cosine(vector, v))),
      }))
      .filter((n) => Number.isFinite(n.cosine))
      .sort((a, b) => b.cosine - a.cosine)
      .slice(0, k),
  );
}

/**
 * The stored neighbours and the batch's, per chunk, as one list of the best `k` (what the database
 * would answer had the earlier items been stored first); a memory listed twice keeps its best.
 */
export function mergeNeighbours(
  stored: readonly (readonly ChunkNeighbour[])[],
  batch: readonly (readonly ChunkNeighbour[])[],
  k: number,
): ChunkNeighbour[][] {
  const chunks = Math.max(stored.length, batch.length);
  return Array.from({ length: chunks }, (_, i) => {
    const best = new Map<string, ChunkNeighbour>();
    for (const n of [...(stored[i] ?? []), ...(batch[i] ?? [])]) {
      const seen = best.get(n.memoryId);
      if (!seen || n.cosine > seen.cosine) best.set(n.memoryId, n);
    }
    return [...best.values()].sort((a, b) => b.cosine - a.cosine).slice(0, k);
  });
}
