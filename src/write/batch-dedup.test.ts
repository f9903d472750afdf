import { describe, expect, it } from 'vitest';
import { bestWholeMemoryMatch } from './dedup-key.js';
import { batchNeighbours, cosine, mergeNeighbours } from './batch-dedup.js';

const unit = (...xs: number[]) => {
  const n = Math.hypot(...xs);
  return xs.map((x) => x / n);
};

describe('dedup inside one batch', () => {
  it('measures cosine on unnormalized vectors and answers 0 for a zero vector', () => {
    expect(cosine([1, 0], [2, 0])).toBeCloseTo(1, 10);
    expect(cosine([1, 0], [0, 3])).toBeCloseTo(0, 10);
    expect(cosine([0, 0], [1, 0])).toBe(0);
  });

  it('ranks the earlier items of the batch by their best chunk, at most k', () => {
    const earlier = [
      { memoryId: 'a', contentHash: 'ha', vectors: [unit(1, 0, 0), unit(0, 1, 0)] },
      { memoryId: 'b', contentHash: 'hb', vectors: [unit(1, 1, 0)] },
      { memoryId: 'c', contentHash: 'hc', vectors: [unit(0, 0, 1)] },
    ];
    const [hits] = batchNeighbours([unit(0, 1, 0)], earlier, 2);
    expect(hits!.map((h) => h.memoryId)).toEqual(['a', 'b']);
    expect(hits![0]!.cosine).toBeCloseTo(1, 10);
    expect(batchNeighbours([unit(1, 0, 0)], [], 5)).toEqual([[]]);
  });

  it('merges stored and batch neighbours per chunk as one best-k list, a memory keeping its best', () => {
    const stored = [
      [
        { memoryId: 'old', contentHash: 'h1', cosine: 0.93 },
        { memoryId: 'x', contentHash: 'hx', cosine: 0.5 },
      ],
    ];
    const batch = [
      [
        { memoryId: 'new', contentHash: 'h2', cosine: 0.99 },
        { memoryId: 'x', contentHash: 'hx', cosine: 0.6 },
      ],
    ];
    const merged = mergeNeighbours(stored, batch, 2);
    expect(merged).toEqual([
      [
        { memoryId: 'new', contentHash: 'h2', cosine: 0.99 },
        { memoryId: 'old', contentHash: 'h1', cosine: 0.93 },
      ],
    ]);
    // The whole-memory match then names the earlier batch item, as the database would once it is stored.
    expect(bestWholeMemoryMatch(merged)).toEqual({ existingId: 'new', similarity: 0.99 });
    expect(mergeNeighbours([], batch, 5)[0]!.map((n) => n.memoryId)).toEqual(['new', 'x']);
  });
});
