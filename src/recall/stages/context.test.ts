import { describe, expect, it } from 'vitest';
import { applyContextBoost, similarityRatio } from './context.js';
import { resolveRecallSettings } from '../settings/index.js';
import { rankCandidates } from './rank.js';
import type { RecallCandidate } from '../types.js';
import { candidateWith } from '../../../test/support/recall-candidates.js';

const turn = candidateWith({ type: 'episodic', importance: 1 });
function candidate(memoryId: string, keyword?: number): RecallCandidate {
  return turn(memoryId, {
    content: `memory ${memoryId} with enough words to be a real turn`,
    ...(keyword === undefined ? {} : { keyword: { raw: keyword, rank: 1 } }),
  });
}

describe('applyContextBoost', () => {
  const settings = resolveRecallSettings('default');
  const ranked = rankCandidates([candidate('anchor', 5), candidate('other', 1)], settings);
  const neighbours = [
    { anchorId: 'anchor', memoryId: 'reply' },
    { anchorId: 'anchor', memoryId: 'unrelated' },
  ];
  const newcomers = new Map([
    ['reply', candidate('reply')],
    ['unrelated', candidate('unrelated')],
  ]);
  const anchorScore = ranked.find((r) => r.candidate.memoryId === 'anchor')!.score;

  it('lifts a neighbour in proportion to its closeness to the question relative to its anchor', () => {
    const sims: Record<string, number> = { anchor: 0.8, reply: 0.75, unrelated: 0.5 }; // cosines 0.6, 0.5, 0
    const out = applyContextBoost(ranked, neighbours, newcomers, settings.context, (id) => sims[id]);
    const byId = new Map(out.map((r) => [r.candidate.memoryId, r.explanation.context]));
    expect(byId.get('reply')).toBeCloseTo(settings.context.weight * anchorScore * (0.5 / 0.6), 10);
    expect(byId.get('unrelated')).toBeUndefined(); // a zero gain adds no newcomer
  });

  it('without the gate, or without similarities, every neighbour gains the full share', () => {
    const ungated = applyContextBoost(ranked, neighbours, newcomers, { ...settings.context, similarityGate: false }, () => 0.5);
    const noSims = applyContextBoost(ranked, neighbours, newcomers, settings.context);
    for (const out of [ungated, noSims]) {
      expect(out.find((r) => r.candidate.memoryId === 'unrelated')!.explanation.context).toBeCloseTo(
        settings.context.weight * anchorScore,
        10,
      );
    }
  });
});

describe('similarityRatio', () => {
  it('is the cosine ratio clamped to [0, 1], and 1 when it cannot be told', () => {
    expect(similarityRatio(0.9, 0.8)).toBe(1);
    expect(similarityRatio(0.4, 0.8)).toBe(0);
    expect(similarityRatio(null, 0.8)).toBe(1);
    expect(similarityRatio(0.7, 0.5)).toBe(1);
  });
});
