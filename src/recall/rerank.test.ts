import { afterEach, describe, expect, it, vi } from 'vitest';
import { cosineSimilarity, createEmbeddingReranker, rerankWithTimeout, type RerankProvider } from './rerank.js';
import type { RankedCandidate } from './types.js';
import { rankedCandidate } from '../../test/support/recall-candidates.js';

function ranked(ids: string[]): RankedCandidate[] {
  return ids.map((memoryId, i) => rankedCandidate(memoryId, 1 - i / 10, {}, { content: `content of ${memoryId}` }));
}

const ids = (items: RankedCandidate[]) => items.map((r) => r.candidate.memoryId);
const reverse: RerankProvider = async (_q, candidates) => candidates.map((c, i) => ({ memoryId: c.memoryId, score: i }));

afterEach(() => {
  vi.useRealTimers();
});

describe('rerankWithTimeout', () => {
  it('reorders the head by the provider and appends the untouched tail', async () => {
    const provider = vi.fn(reverse);
    const input = ranked(['a', 'b', 'c', 'd', 'e']);
    const out = await rerankWithTimeout('q', input, provider, { topN: 3, timeoutMs: 1000 });
    expect(out.rerankApplied).toBe(true);
    expect(ids(out.items)).toEqual(['c', 'b', 'a', 'd', 'e']);
    expect(provider.mock.calls[0]?.[1].map((c) => c.memoryId)).toEqual(['a', 'b', 'c']);
    expect(provider.mock.calls[0]?.[1][0]).toMatchObject({ content: 'content of a', score: 1 });
    const c = out.items[0] as RankedCandidate;
    expect(c.score).toBe(2);
    expect(c.explanation.rerank).toBe(2);
    expect(c.explanation.final).toBe(2);
    expect(c.explanation.fused).toBeCloseTo(0.8);
    expect(out.items[3]?.explanation.rerank).toBeNull();
    expect(ids(input)).toEqual(['a', 'b', 'c', 'd', 'e']);
  });

  it('keeps results the provider did not score, right after the scored ones', async () => {
    const partial: RerankProvider = async () => [
      { memoryId: 'c', score: 5 },
      { memoryId: 'zzz', score: 9 },
    ];
    const out = await rerankWithTimeout('q', ranked(['a', 'b', 'c', 'd']), partial, { topN: 3, timeoutMs: 1000 });
    expect(ids(out.items)).toEqual(['c', 'a', 'b', 'd']);
  });

  it('on timeout returns the input order, says so, aborts the provider and clears its timer', async () => {
    vi.useFakeTimers();
    let signal: AbortSignal | undefined;
    let rejectLate: (error: Error) => void = () => {};
    const hanging: RerankProvider = (_q, _c, s) => {
      signal = s;
      return new Promise((_resolve, reject) => {
        rejectLate = reject;
      });
    };
    const pending = rerankWithTimeout('q', ranked(['a', 'b', 'c']), hanging, { topN: 2, timeoutMs: 2000 });
    await vi.advanceTimersByTimeAsync(1999);
    expect(signal?.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    const out = await pending;
    expect(out).toMatchObject({ rerankApplied: false, reason: 'timeout' });
    expect(ids(out.items)).toEqual(['a', 'b', 'c']);
    expect(signal?.aborted).toBe(true);
    expect(vi.getTimerCount()).toBe(0);
    // A provider failing after the deadline must not surface as an unhandled rejection.
    rejectLate(new Error('too late'));
    await Promise.resolve();
  });

  it('clears its timer when the provider answers in time', async () => {
    vi.useFakeTimers();
    const out = await rerankWithTimeout('q', ranked(['a', 'b']), reverse, { topN: 5, timeoutMs: 2000 });
    expect(out.rerankApplied).toBe(true);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('on a thrown or rejected error returns the input order with the error', async () => {
    const boom = new Error('model unavailable');
    const syncThrow: RerankProvider = () => {
      throw boom;
    };
    const asyncThrow: RerankProvider = async () => {
      throw boom;
    };
    for (const provider of [syncThrow, asyncThrow]) {
      vi.useFakeTimers();
      const out = await rerankWithTimeout('q', ranked(['a', 'b', 'c']), provider, { topN: 2, timeoutMs: 1000 });
      expect(out).toMatchObject({ rerankApplied: false, reason: 'error', error: boom });
      expect(ids(out.items)).toEqual(['a', 'b', 'c']);
      expect(vi.getTimerCount()).toBe(0);
    }
  });

  it('treats an answer without usable scores as an error', async () => {
    const useless: RerankProvider = async () => [{ memoryId: 'a', score: Number.NaN }];
    const out = await rerankWithTimeout('q', ranked(['a', 'b']), useless, { topN: 2, timeoutMs: 1000 });
    expect(out).toMatchObject({ rerankApplied: false, reason: 'error' });
    expect(ids(out.items)).toEqual(['a', 'b']);
  });

  it('does not call the provider for an empty list', async () => {
    const provider = vi.fn(reverse);
    const out = await rerankWithTimeout('q', [], provider, { topN: 20, timeoutMs: 1000 });
    expect(out).toEqual({ items: [], rerankApplied: false, reason: 'empty' });
    expect(provider).not.toHaveBeenCalled();
  });
});

describe('createEmbeddingReranker', () => {
  const query = new Float32Array([1, 0]);
  const vectors: Record<string, Float32Array> = {
    same: new Float32Array([1, 0]),
    opposite: new Float32Array([-1, 0]),
    orthogonal: new Float32Array([0, 1]),
  };
  const provider = createEmbeddingReranker(query, (id) => vectors[id]);
  const signal = new AbortController().signal;

  it('blends 0.7 × score + 0.3 × similarity on the index scale and sorts by it', async () => {
    const out = await provider(
      'q',
      [
        { memoryId: 'opposite', content: '', score: 0.9 },
        { memoryId: 'orthogonal', content: '', score: 0.8 },
        { memoryId: 'same', content: '', score: 0.6 },
      ],
      signal,
    );
    expect(out.map((s) => s.memoryId)).toEqual(['same', 'orthogonal', 'opposite']);
    const score = Object.fromEntries(out.map((s) => [s.memoryId, s.score]));
    expect(score.same).toBeCloseTo(0.7 * 0.6 + 0.3 * 1);
    expect(score.orthogonal).toBeCloseTo(0.7 * 0.8 + 0.3 * 0.5);
    expect(score.opposite).toBeCloseTo(0.7 * 0.9 + 0.3 * 0);
  });

  it('keeps the score of a candidate without a vector', async () => {
    const out = await provider('q', [{ memoryId: 'unknown', content: '', score: 0.42 }], signal);
    expect(out).toEqual([{ memoryId: 'unknown', score: 0.42 }]);
  });

  it('computes cosine similarity and refuses mismatched or zero vectors', () => {
    expect(cosineSimilarity([1, 2, 3], [2, 4, 6])).toBeCloseTo(1);
    expect(cosineSimilarity([1, 0], [0, 1])).toBeCloseTo(0);
    expect(cosineSimilarity([1, 0], [1, 0, 0])).toBeNull();
    expect(cosineSimilarity([0, 0], [1, 0])).toBeNull();
  });
});
