import { describe, expect, it } from 'vitest';
import { rerankBySimilarity } from './rerank.js';
import type { RankedCandidate } from '../types.js';
import { rankedCandidate } from '../../../test/support/recall-candidates.js';

function ranked(ids: string[]): RankedCandidate[] {
  return ids.map((memoryId, i) => rankedCandidate(memoryId, 1 - i / 10, {}, { content: `content of ${memoryId}` }));
}

const ids = (items: RankedCandidate[]) => items.map((r) => r.candidate.memoryId);
const weights = { topN: 3, scoreWeight: 0.7, similarityWeight: 0.3 };

describe('rerankBySimilarity', () => {
  it('blends 0.7 × score + 0.3 × similarity on the index scale, reorders the head and appends the untouched tail', () => {
    const similarity: Record<string, number> = { a: 0, b: 0.5, c: 1, d: 1, e: 1 };
    const input = ranked(['a', 'b', 'c', 'd', 'e']);
    const out = rerankBySimilarity(input, (id) => similarity[id], weights);
    expect(ids(out)).toEqual(['c', 'b', 'a', 'd', 'e']);
    const c = out[0]!;
    expect(c.score).toBeCloseTo(0.7 * 0.8 + 0.3 * 1);
    expect(c.explanation.rerank).toBe(c.score);
    expect(c.explanation.final).toBe(c.score);
    expect(out[1]!.score).toBeCloseTo(0.7 * 0.9 + 0.3 * 0.5);
    expect(out[2]!.score).toBeCloseTo(0.7 * 1 + 0.3 * 0);
    expect(out[3]?.explanation.rerank).toBeNull();
    expect(out[3]?.score).toBeCloseTo(0.7);
    expect(ids(input)).toEqual(['a', 'b', 'c', 'd', 'e']);
  });

  it('keeps the score of a result without a similarity, and the input order among equal scores', () => {
    const out = rerankBySimilarity(ranked(['a', 'b']), () => null, weights);
    expect(ids(out)).toEqual(['a', 'b']);
    expect(out.map((r) => r.score)).toEqual([1, 0.9]);
  });

  it('never drops a result and handles an empty list', () => {
    expect(rerankBySimilarity([], () => 1, weights)).toEqual([]);
    expect(rerankBySimilarity(ranked(['a', 'b', 'c', 'd']), () => 0.5, { ...weights, topN: 10 })).toHaveLength(4);
  });
});
