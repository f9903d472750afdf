import { describe, expect, it } from 'vitest';
import { NamespaceBudget } from './namespace-budget.js';

describe('NamespaceBudget', () => {
  it('holds a namespace back once its calls in the window reach the limit, and lets it go as they leave the window', () => {
    let now = 0;
    const budget = new NamespaceBudget(5, 60_000, () => now);
    budget.record('import', 2);
    budget.record('quiet', 1);
    now = 10_000;
    budget.record('import', 2);
    expect(budget.exhausted()).toEqual([]);
    now = 20_000;
    budget.record('import', 1);
    expect(budget.exhausted()).toEqual(['import']);
    // The first two calls leave the window at 60 s: 3 of 5 left, the namespace runs again.
    now = 60_001;
    expect(budget.exhausted()).toEqual([]);
    budget.record('import', 2);
    expect(budget.exhausted()).toEqual(['import']);
    now = 200_000;
    expect(budget.exhausted()).toEqual([]);
  });

  it('is off at 0: nothing is ever held back', () => {
    const budget = new NamespaceBudget(0, 60_000);
    budget.record('import', 1_000);
    expect(budget.enabled).toBe(false);
    expect(budget.exhausted()).toEqual([]);
  });
});
