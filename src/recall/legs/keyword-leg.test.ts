import { describe, expect, it } from 'vitest';
import { fuseReadings } from './keyword-leg.js';

describe('fuseReadings', () => {
  it('scales each reading by its best score, weights and sums them', () => {
    const alone = [
      { memoryId: 'a', score: 4 },
      { memoryId: 'b', score: 2 },
    ];
    const inContext = [
      { memoryId: 'c', score: 10 },
      { memoryId: 'a', score: 5 },
    ];
    expect(fuseReadings(alone, inContext, 0.5)).toEqual([
      { memoryId: 'a', score: 0.75 },
      { memoryId: 'c', score: 0.5 },
      { memoryId: 'b', score: 0.25 },
    ]);
  });

  it('at weight 0 or 1 keeps one reading only', () => {
    const alone = [{ memoryId: 'a', score: 1 }];
    const inContext = [{ memoryId: 'b', score: 3 }];
    expect(fuseReadings(alone, inContext, 0).map((h) => h.memoryId)).toEqual(['a']);
    expect(fuseReadings(alone, inContext, 1)).toEqual([{ memoryId: 'b', score: 1 }]);
  });

  it('an empty reading adds nothing', () => {
    expect(fuseReadings([], [{ memoryId: 'b', score: 2 }], 0.5)).toEqual([{ memoryId: 'b', score: 0.5 }]);
  });
});
