import { describe, expect, it } from 'vitest';
import { clipText, fitList } from './budget.js';

// One token per 4 characters, rounded up: enough to check the arithmetic of the bounds.
const count = (text: string) => Math.ceil(text.length / 4);

describe('fitList', () => {
  const items = Array.from({ length: 40 }, (_, i) => ({ id: `id-${i}`, title: `memory number ${i}` }));

  it('keeps every item when they fit, without an omitted count', () => {
    const out = JSON.parse(fitList({ offset: 0 }, 'hits', items.slice(0, 3), 1_000, count));
    expect(out).toEqual({ offset: 0, hits: items.slice(0, 3) });
  });

  it('keeps the longest prefix within the budget and counts the rest', () => {
    for (const budget of [20, 57, 150, 400]) {
      const text = fitList({ offset: 0 }, 'hits', items, budget, count);
      expect(count(text)).toBeLessThanOrEqual(budget);
      const out = JSON.parse(text);
      expect(out.hits).toEqual(items.slice(0, out.hits.length));
      expect(out.hits.length + out.omitted).toBe(items.length);
      // One more item would not have fitted.
      const longer = JSON.stringify({ offset: 0, hits: items.slice(0, out.hits.length + 1), omitted: out.omitted - 1 });
      expect(count(longer)).toBeGreaterThan(budget);
    }
  });
});

describe('clipText', () => {
  it('returns short text unchanged and cuts long text to the budget with an ellipsis', () => {
    expect(clipText('short', 10, count)).toBe('short');
    const long = 'word '.repeat(500);
    const clipped = clipText(long, 50, count);
    expect(count(clipped)).toBeLessThanOrEqual(50);
    expect(clipped.endsWith('…')).toBe(true);
    expect(long.startsWith(clipped.slice(0, -1))).toBe(true);
    expect(count(`${long.slice(0, clipped.length)}…`)).toBeGreaterThan(50);
  });
});
