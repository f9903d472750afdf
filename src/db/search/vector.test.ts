import { describe, expect, it } from 'vitest';
import type { Executor } from '../executor.js';
import { EXACT_SCAN_BUDGET, MAX_INDEX_K, nearestInNamespace, planVectorSearch } from './vector.js';

describe('planVectorSearch: cost follows the namespace, not the store', () => {
  it('scans a small namespace exactly, however large the store', () => {
    for (const total of [1_000, 100_000, 10_000_000])
      expect(planVectorSearch({ namespaceChunks: 800, totalChunks: total }, 1, 10)).toEqual({ path: 'exact' });
  });

  it('asks the index for more candidates the smaller the namespace’s share', () => {
    const half = planVectorSearch({ namespaceChunks: 50_000, totalChunks: 100_000 }, 1, 50);
    const tenth = planVectorSearch({ namespaceChunks: 50_000, totalChunks: 500_000 }, 1, 50);
    expect(half).toEqual({ path: 'index', k: 200 });
    expect(tenth).toEqual({ path: 'index', k: 1_000 });
  });

  it('prefers the scan when many query vectors would each pay for a wide index search', () => {
    // 6,000 chunks are 0.06 % of the store: k hits the cap, and 100 searches of 4,000 cost more than one scan.
    expect(planVectorSearch({ namespaceChunks: 6_000, totalChunks: 10_000_000 }, 100, 5)).toEqual({ path: 'exact' });
    // One query vector: one index search is cheaper than reading 6,000 vectors.
    expect(planVectorSearch({ namespaceChunks: 6_000, totalChunks: 10_000_000 }, 1, 5)).toEqual({ path: 'index', k: MAX_INDEX_K });
  });

  it('takes the index for a batch in a large namespace (a scan of it per batch would take seconds)', () => {
    expect(planVectorSearch({ namespaceChunks: 10_000, totalChunks: 150_000 }, 100, 5)).toEqual({ path: 'index', k: 150 });
  });

  it('weighs the number of query vectors (semantic dedup of a whole batch)', () => {
    const chunks = Math.floor(EXACT_SCAN_BUDGET / 4);
    expect(planVectorSearch({ namespaceChunks: chunks, totalChunks: chunks }, 4, 10).path).toBe('exact');
    expect(planVectorSearch({ namespaceChunks: chunks, totalChunks: chunks }, 5, 10)).toEqual({ path: 'index', k: 50 });
  });

  it('never asks the index for more than MAX_INDEX_K', () => {
    const plan = planVectorSearch({ namespaceChunks: 1_000_000, totalChunks: 1_000_000_000 }, 1, 100);
    expect(plan).toEqual({ path: 'index', k: MAX_INDEX_K });
  });
});

describe('nearestInNamespace widens only the vectors other tenants crowded out', () => {
  it('searches again, wider, for the crowded vector alone', async () => {
    const calls: Array<{ operation: string; k?: number; vectors?: number[][] }> = [];
    const executor = {
      read: async (operation: string, _cypher: string, params: { k?: number; vectors?: number[][] } = {}) => {
        calls.push({ operation, k: params.k, vectors: params.vectors });
        if (operation === 'vectors.namespaceChunks') return [{ chunks: 10_000 }];
        if (operation === 'vectors.allChunks') return [{ chunks: 150_000 }];
        // Vector [1] is crowded out until k reaches 2,400; the others find their hits at once.
        return params.vectors!.map((v, i) => ({
          i,
          hits: v[0] === 1 && params.k! < 2_400 ? [] : [{ memoryId: `m${v[0]}`, contentHash: 'h', score: 0.9 }],
        }));
      },
    } as unknown as Executor;
    const vectors = Array.from({ length: 100 }, (_, i) => [i, 0, 0]);
    const result = await nearestInNamespace(executor, vectors, { namespace: 'ns', limit: 1 });
    expect(result.path).toBe('widened');
    expect(result.hits.map((h) => h[0]?.memoryId)).toEqual(vectors.map((v) => `m${v[0]}`));
    const searches = calls.filter((c) => c.operation === 'vectors.index');
    expect(searches[0]!.vectors).toHaveLength(100);
    for (const again of searches.slice(1)) expect(again.vectors).toEqual([[1, 0, 0]]);
    expect(searches.map((s) => s.k)).toEqual([50, 200, 800, 3_200]);
  });
});
