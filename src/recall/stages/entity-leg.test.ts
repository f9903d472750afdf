import { describe, expect, it } from 'vitest';
import { entityLeg } from './entity-leg.js';
import type { NamedEntity } from './query-entities.js';

const entity = (id: string, memories: Array<[string, number]>): NamedEntity => ({
  id,
  name: id,
  mentions: memories.length,
  byAlias: false,
  memories: memories.map(([memoryId, score]) => ({ memoryId, score })),
});

describe('entityLeg', () => {
  it('sums what each named entity adds: a memory naming two of them outranks one naming one', () => {
    const hits = entityLeg(
      [
        entity('alice', [
          ['m1', 0.4],
          ['m2', 0.5],
        ]),
        entity('kestrel', [['m1', 0.3]]),
      ],
      10,
    );
    expect(hits.map((h) => h.memoryId)).toEqual(['m1', 'm2']);
    expect(hits[0]!.score).toBeCloseTo(0.7);
  });

  it('breaks ties by id and keeps `limit` rows', () => {
    const hits = entityLeg(
      [
        entity('a', [
          ['m3', 0.5],
          ['m2', 0.5],
          ['m1', 0.2],
        ]),
      ],
      2,
    );
    expect(hits).toEqual([
      { memoryId: 'm2', score: 0.5 },
      { memoryId: 'm3', score: 0.5 },
    ]);
  });

  it('is empty without named entities', () => {
    expect(entityLeg([], 10)).toEqual([]);
  });
});
