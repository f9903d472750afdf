import { describe, expect, it } from 'vitest';
import { applyLearnedRank, LEARNED_RANK_FEATURES, learnedLogit, learnedRankFeatures, type LearnedRankModel } from './learned-rank.js';
import { LEARNED_RANK_MODEL } from './learned-rank-weights.js';
import type { RankedCandidate } from '../../src/recall/types.js';
import { rankedCandidate } from '../support/recall-candidates.js';

function ranked(id: string, score: number, keyword: number | null, similarity: number | null = null): RankedCandidate {
  return rankedCandidate(id, score, {
    method: 'zscore',
    keyword: keyword === null ? null : { raw: keyword * 10, normalized: keyword, rank: 1 },
    similarity,
  });
}

/** A model that weighs one feature only. */
function only(feature: (typeof LEARNED_RANK_FEATURES)[number], weight: number): LearnedRankModel {
  const weights = Object.fromEntries(
    LEARNED_RANK_FEATURES.map((name) => [name, { mean: 0, scale: 1, weight: 0 }]),
  ) as LearnedRankModel['weights'];
  weights[feature] = { mean: 0.5, scale: 0.25, weight };
  return { intercept: 0, weights };
}

const ids = (items: readonly RankedCandidate[]) => items.map((r) => r.candidate.memoryId);

describe('learnedRankFeatures', () => {
  it('reads each result of the head from its explanation and its place', () => {
    const [first, second] = learnedRankFeatures([ranked('a', 0.8, 0.5, 0.75), ranked('b', 0.4, null)]);
    const at = (row: number[] | undefined, name: (typeof LEARNED_RANK_FEATURES)[number]) => row![LEARNED_RANK_FEATURES.indexOf(name)];
    expect([at(first, 'keyword'), at(first, 'keywordRank'), at(first, 'similarity'), at(first, 'final'), at(first, 'position')]).toEqual([
      0.5, 1, 0.75, 1, 1,
    ]);
    expect([
      at(second, 'keyword'),
      at(second, 'keywordRank'),
      at(second, 'similarity'),
      at(second, 'final'),
      at(second, 'position'),
    ]).toEqual([0, 0, 0, 0.5, 0.5]);
    expect(first).toHaveLength(LEARNED_RANK_FEATURES.length);
  });
});

describe('applyLearnedRank', () => {
  const list = [ranked('a', 0.9, 0.1), ranked('b', 0.8, 0.9), ranked('c', 0.7, 0.5), ranked('d', 0.6, 1)];

  it('orders the head by the weights and carries the learned score in the explanation', () => {
    const out = applyLearnedRank(list, only('keyword', 2), 3);
    expect(ids(out)).toEqual(['b', 'c', 'a', 'd']);
    const b = out[0]!;
    const expected = 1 / (1 + Math.exp(-learnedLogit(learnedRankFeatures(list.slice(0, 3))[1]!, only('keyword', 2))));
    expect(b.score).toBeCloseTo(expected, 12);
    expect(b.explanation).toMatchObject({ final: b.score, fused: 0.8 });
    // Beyond topN: untouched.
    expect(out[3]).toBe(list[3]);
    expect(ids(applyLearnedRank(list, only('keyword', -2), 4))).toEqual(['a', 'c', 'b', 'd']);
  });

  it('keeps the order when the model weighs only the position, and every result', () => {
    const out = applyLearnedRank(list, only('position', 1), 50);
    expect(ids(out)).toEqual(['a', 'b', 'c', 'd']);
    expect(ids(applyLearnedRank(list, LEARNED_RANK_MODEL, 50)).sort()).toEqual(['a', 'b', 'c', 'd']);
    expect(applyLearnedRank(list.slice(0, 1), only('keyword', 2), 50)).toEqual(list.slice(0, 1));
  });
});
