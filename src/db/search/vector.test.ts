import { describe, expect, it } from 'vitest';
import type { Executor } from '../executor.js';
import { firstK, MAX_INDEX_K, nearestInNamespace } from './vector.js';

interface Call {
  operation: string;
  k: number;
  vectors: number[][];
}

/** An executor answering `vectors.search` as the index would for `answer(vector, k)`. */
function fakeExecutor(answer: (vector: number[], k: number) => { found: number; hits: number }) {
  const calls: Call[] = [];
  const executor = {
    read: async (operation: string, _cypher: string, params: { k: { toNumber(): number }; vectors: number[][] }) => {
      const k = params.k.toNumber();
      calls.push({ operation, k, vectors: params.vectors });
      return params.vectors.map((v, i) => {
        const { found, hits } = answer(v, k);
        return { i, found, hits: Array.from({ length: hits }, (_, h) => ({ memoryId: `m${v[0]}-${h}`, contentHash: 'h', score: 0.9 })) };
      });
    },
  } as unknown as Executor;
  return { executor, calls };
}

describe('nearestInNamespace: one in-index filtered search per vector', () => {
  it('asks the index for twice what is wanted (excluded ids included), within bounds', () => {
    expect(firstK(5, 0)).toBe(10);
    expect(firstK(50, 10)).toBe(120);
    expect(firstK(1, 0)).toBe(10);
    expect(firstK(10_000, 0)).toBe(MAX_INDEX_K);
  });

  it('searches a whole batch in one statement and stops when every vector has its memories', async () => {
    const { executor, calls } = fakeExecutor((_v, k) => ({ found: k, hits: 5 }));
    const vectors = Array.from({ length: 500 }, (_, i) => [i, 0, 0]);
    const result = await nearestInNamespace(executor, vectors, { namespace: 'ns', limit: 5 });
    expect(result.path).toBe('index');
    expect(calls).toHaveLength(1);
    expect(calls[0]!.vectors).toHaveLength(500);
    expect(result.hits.every((h) => h.length === 5)).toBe(true);
  });

  it('does not search again when the namespace had fewer chunks than asked for', async () => {
    const { executor, calls } = fakeExecutor(() => ({ found: 3, hits: 2 }));
    const result = await nearestInNamespace(executor, [[1, 0, 0]], { namespace: 'ns', limit: 5 });
    expect(result).toMatchObject({ path: 'index' });
    expect(result.hits[0]).toHaveLength(2);
    expect(calls).toHaveLength(1);
  });

  it('widens only the vectors whose k chunks held too few memories', async () => {
    // Vector [1] needs k ≥ 640 (its nearest chunks belong to few, or deleted, memories).
    const { executor, calls } = fakeExecutor((v, k) => ({ found: k, hits: v[0] === 1 && k < 640 ? 1 : 5 }));
    const vectors = Array.from({ length: 100 }, (_, i) => [i, 0, 0]);
    const result = await nearestInNamespace(executor, vectors, { namespace: 'ns', limit: 5 });
    expect(result.path).toBe('widened');
    expect(result.hits.every((h) => h.length === 5)).toBe(true);
    expect(calls[0]!.vectors).toHaveLength(100);
    for (const again of calls.slice(1)) expect(again.vectors).toEqual([[1, 0, 0]]);
    expect(calls.map((c) => c.k)).toEqual([10, 40, 160, 640]);
  });

  it('never asks for more than MAX_INDEX_K', async () => {
    const { executor, calls } = fakeExecutor((_v, k) => ({ found: k, hits: 0 }));
    const result = await nearestInNamespace(executor, [[1, 0, 0]], { namespace: 'ns', limit: 5 });
    expect(result.hits[0]).toEqual([]);
    expect(Math.max(...calls.map((c) => c.k))).toBe(MAX_INDEX_K);
  });
});
