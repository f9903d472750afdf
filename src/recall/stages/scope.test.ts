import { describe, expect, it } from 'vitest';
import { hasScopingFilter } from '../plan.js';
import { MAX_WIDENED_FETCH, shouldWiden, widen } from './scope.js';

const hits = (n: number) => Array.from({ length: n }, (_, i) => ({ memoryId: `m${i}`, score: 1 - i / 1000 }));

describe('a filter never hides a match: scope and widening', () => {
  it('lists the scope for the filters a caller names, not for the include flags alone', () => {
    expect(hasScopingFilter(null)).toBe(false);
    expect(hasScopingFilter({ includeDeleted: true, includeSuperseded: true, types: [], tags: [] })).toBe(false);
    expect(hasScopingFilter({ minImportance: 0 })).toBe(false);
    for (const f of [
      { sessionId: 's' },
      { types: ['fact'] },
      { tags: ['ops'] },
      { occurredAfter: '2024-01-01T00:00:00Z' },
      { occurredBefore: '2024-01-01T00:00:00Z' },
      { minImportance: 0.3 },
    ])
      expect(hasScopingFilter(f), JSON.stringify(f)).toBe(true);
  });

  it('widens while the filtered list is short and a leg came back full, up to the bound', () => {
    expect(shouldWiden(3, 10, { vector: hits(40), keyword: [] }, 40)).toBe(true);
    expect(shouldWiden(3, 10, { vector: hits(12), keyword: hits(40) }, 40)).toBe(true);
    // The namespace is exhausted: no leg returned all it was asked for.
    expect(shouldWiden(3, 10, { vector: hits(25), keyword: hits(7) }, 40)).toBe(false);
    // Full already.
    expect(shouldWiden(10, 10, { vector: hits(40), keyword: [] }, 40)).toBe(false);
    expect(shouldWiden(3, 10, { vector: hits(MAX_WIDENED_FETCH), keyword: [] }, MAX_WIDENED_FETCH)).toBe(false);
    // A memory found by several chunks counts once.
    expect(shouldWiden(3, 10, { vector: [...hits(20), ...hits(20)], keyword: [] }, 40)).toBe(false);
    expect(widen(40)).toBe(160);
    expect(widen(3_000)).toBe(MAX_WIDENED_FETCH);
  });
});
