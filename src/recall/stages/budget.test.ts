import { describe, expect, it } from 'vitest';
import { applyTokenBudget } from './budget.js';
import type { RecallMemory } from '../types.js';
import { recallMemory } from '../../../test/support/recall-candidates.js';

interface Item {
  candidate: RecallMemory;
  score: number;
}

/** Content is `tokens` words; the test tokenizer counts words. */
function item(memoryId: string, tokens: number, overrides: Partial<RecallMemory> = {}): Item {
  return {
    candidate: recallMemory(memoryId, { content: Array.from({ length: tokens }, () => 'w').join(' '), ...overrides }),
    score: 0,
  };
}

const countTokens = (text: string) => (text === '' ? 0 : text.split(' ').length);
const ids = (items: Item[]) => items.map((i) => i.candidate.memoryId);

describe('applyTokenBudget', () => {
  it('keeps ranked order in the results and puts procedural memories and constraints first in the prompt', () => {
    const ranked = [
      item('s1', 1),
      item('c1', 1, { isConstraint: true }),
      item('s2', 1),
      item('p1', 1, { type: 'procedural' }),
      item('d1', 1, { type: 'decision', isConstraint: true }),
      item('s3', 1),
    ];
    const out = applyTokenBudget(ranked, { limit: 10, tokenBudget: 100, countTokens });
    expect(ids(out.selected)).toEqual(['s1', 'c1', 's2', 'p1', 'd1', 's3']);
    expect(ids(out.promptOrder)).toEqual(['c1', 'p1', 'd1', 's1', 's2', 's3']);
  });

  it('a constraint within the limit claims a tight budget before a better-ranked plain memory', () => {
    const ranked = [item('s1', 5), item('c1', 5, { isConstraint: true }), item('s2', 1)];
    const out = applyTokenBudget(ranked, { limit: 2, tokenBudget: 6, countTokens });
    expect(ids(out.selected)).toEqual(['c1', 's2']);
    expect(out.omittedForBudget).toEqual(['s1']);
  });

  it('a pinned memory within the limit claims a tight budget like a constraint', () => {
    const ranked = [item('s1', 5), item('pin', 5, { pinned: true }), item('s2', 1)];
    const out = applyTokenBudget(ranked, { limit: 2, tokenBudget: 6, countTokens });
    expect(ids(out.selected)).toEqual(['pin', 's2']);
    expect(ids(out.promptOrder)[0]).toBe('pin');
  });

  it('does not promote a constraint ranked below the limit over more relevant results', () => {
    const ranked = [item('s1', 1), item('s2', 1), item('s3', 1), item('c1', 1, { isConstraint: true })];
    expect(ids(applyTokenBudget(ranked, { limit: 2, tokenBudget: null, countTokens }).selected)).toEqual(['s1', 's2']);
  });

  it('skips an item that would overflow and keeps trying smaller ones', () => {
    const ranked = [item('a', 6), item('big', 10), item('b', 3), item('huge', 50), item('c', 1)];
    const out = applyTokenBudget(ranked, { limit: 10, tokenBudget: 10, countTokens });
    expect(ids(out.selected)).toEqual(['a', 'b', 'c']);
    expect(out.totalTokens).toBe(10);
    expect(out.budgetUsed).toBe(1);
    expect(out.omittedForBudget).toEqual(['big', 'huge']);
    expect(out.selected.map((s) => s.tokens)).toEqual([6, 3, 1]);
  });

  it('never exceeds the budget, whatever the sizes', () => {
    let seed = 42;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    for (let round = 0; round < 200; round++) {
      const ranked = Array.from({ length: 1 + Math.floor(random() * 30) }, (_, i) =>
        item(`m${i}`, Math.floor(random() * 40), { isConstraint: random() < 0.2 }),
      );
      const budget = 1 + Math.floor(random() * 120);
      const limit = 1 + Math.floor(random() * 15);
      const out = applyTokenBudget(ranked, { limit, tokenBudget: budget, countTokens });
      expect(out.totalTokens).toBeLessThanOrEqual(budget);
      expect(out.selected.length).toBeLessThanOrEqual(limit);
      expect(out.totalTokens).toBe(out.selected.reduce((sum, s) => sum + countTokens(s.candidate.content), 0));
      expect(new Set(ids(out.selected)).size).toBe(out.selected.length);
    }
  });

  it('stops at the limit', () => {
    const out = applyTokenBudget([item('a', 1), item('b', 1), item('c', 1)], { limit: 2, tokenBudget: 100, countTokens });
    expect(ids(out.selected)).toEqual(['a', 'b']);
    expect(out.budgetUsed).toBeCloseTo(0.02);
  });

  it('applies only the limit without a budget', () => {
    const out = applyTokenBudget([item('a', 5000), item('b', 7000), item('c', 1)], { limit: 2, tokenBudget: null, countTokens });
    expect(ids(out.selected)).toEqual(['a', 'b']);
    expect(out.totalTokens).toBe(12000);
    expect(out.budgetUsed).toBe(0);
  });

  it('takes priority types from the options', () => {
    const ranked = [item('s', 1), item('w', 1, { type: 'working' })];
    const out = applyTokenBudget(ranked, { limit: 5, tokenBudget: null, countTokens, priorityTypes: ['working'] });
    expect(ids(out.promptOrder)).toEqual(['w', 's']);
  });

  it('rejects a tokenizer that returns nonsense instead of overrunning the budget', () => {
    expect(() => applyTokenBudget([item('a', 1)], { limit: 5, tokenBudget: 10, countTokens: () => Number.NaN })).toThrow(/countTokens/);
  });

  it('lets a matching preference from below the limit into the prompt, first, within its slots and above the floor', () => {
    const sim = (similarity: number, overrides: Partial<RecallMemory> = {}) => ({ similarity, ...overrides });
    const ranked = [
      item('s1', 1, sim(0.9)),
      item('s2', 1, sim(0.8)),
      item('s3', 1, sim(0.7)),
      item('s4', 1, sim(0.5)),
      // Below the limit of 4: two preferences as close to the question as the head's median (0.7), one not.
      item('p1', 1, sim(0.85, { type: 'preference' })),
      item('p2', 1, sim(0.6, { type: 'procedural' })),
      item('p3', 1, sim(0.75, { type: 'procedural' })),
      item('s5', 1, sim(0.95)),
    ];
    const out = applyTokenBudget(ranked, { limit: 4, tokenBudget: null, countTokens, preferenceSlots: 2 });
    expect(ids(out.selected)).toEqual(['s1', 's2', 'p1', 'p3']);
    expect(ids(out.promptOrder)).toEqual(['p1', 'p3', 's1', 's2']);
    // One slot: the better ranked of the two; none: the ranking as it is.
    expect(ids(applyTokenBudget(ranked, { limit: 4, tokenBudget: null, countTokens, preferenceSlots: 1 }).selected)).toEqual([
      's1',
      's2',
      's3',
      'p1',
    ]);
    expect(ids(applyTokenBudget(ranked, { limit: 4, tokenBudget: null, countTokens, preferenceSlots: 0 }).selected)).toEqual([
      's1',
      's2',
      's3',
      's4',
    ]);
  });

  it('never promotes a preference without a similarity (no question vector)', () => {
    const ranked = [item('s1', 1), item('s2', 1), item('p1', 1, { type: 'preference' })];
    expect(ids(applyTokenBudget(ranked, { limit: 2, tokenBudget: null, countTokens, preferenceSlots: 2 }).selected)).toEqual(['s1', 's2']);
  });
});
