import { describe, expect, it } from 'vitest';
import { assembleCandidates, candidateIds } from './candidates.js';
import { recallMemory } from '../../test/support/recall-candidates.js';

const memory = (memoryId: string) => recallMemory(memoryId, { content: memoryId });

const memories = new Map(['a', 'b', 'c', 'g'].map((id) => [id, memory(id)]));

describe('assembleCandidates', () => {
  it('keeps each memory’s best chunk per leg and ranks memories from 1', () => {
    const out = assembleCandidates(
      {
        vector: [
          { memoryId: 'a', score: 0.7 },
          { memoryId: 'b', score: 0.8 },
          { memoryId: 'a', score: 0.9 },
        ],
        keyword: [{ memoryId: 'c', score: 3 }],
        hints: [
          { memoryId: 'b', score: 1 },
          { memoryId: 'b', score: 4 },
        ],
      },
      memories,
    );
    const byId = new Map(out.map((c) => [c.memoryId, c]));
    expect(byId.get('a')?.vector).toEqual({ raw: 0.9, rank: 1 });
    expect(byId.get('b')?.vector).toEqual({ raw: 0.8, rank: 2 });
    expect(byId.get('b')?.hint).toEqual({ raw: 4, rank: 1 });
    expect(byId.get('c')?.keyword).toEqual({ raw: 3, rank: 1 });
    expect(byId.get('c')?.vector).toBeUndefined();
    expect(out.every((c) => c.graphBoost === 0)).toBe(true);
  });

  it('adds graph-only memories unless told not to, and drops ids without a memory', () => {
    const legs = {
      vector: [
        { memoryId: 'a', score: 0.5 },
        { memoryId: 'gone', score: 0.9 },
      ],
      graph: new Map([
        ['g', 1],
        ['a', 0.5],
      ]),
    };
    expect(candidateIds(legs)).toEqual(['a', 'gone', 'g']);
    const out = assembleCandidates(legs, memories);
    expect(out.map((c) => [c.memoryId, c.graphBoost])).toEqual([
      ['a', 0.5],
      ['g', 1],
    ]);
    expect(assembleCandidates(legs, memories, { includeGraphOnly: false }).map((c) => c.memoryId)).toEqual(['a']);
  });
});
