import { describe, expect, it } from 'vitest';
import { budgetCounter, clipText, fitItems, fitJson, fitList } from './budget.js';

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

describe('fitItems', () => {
  it('keeps the longest prefix whose JSON fits and counts the rest', () => {
    const names = Array.from({ length: 100 }, (_, i) => `alias number ${i}`);
    const { kept, omitted } = fitItems(names, 50, count);
    expect(count(JSON.stringify(kept))).toBeLessThanOrEqual(50);
    expect(count(JSON.stringify(names.slice(0, kept.length + 1)))).toBeGreaterThan(50);
    expect(kept.length + omitted).toBe(100);
    expect(fitItems(names, 0, count)).toEqual({ kept: [], omitted: 100 });
  });
});

describe('fitJson', () => {
  const id = '0b7f2c4e-93a1-4a57-9d0e-5f3b2a1c8e77';
  const huge = {
    id,
    name: 'N'.repeat(5_000),
    aliases: Array.from({ length: 500 }, (_, i) => `alias ${i} ${'x'.repeat(150)}`),
    nested: { items: Array.from({ length: 300 }, (_, i) => ({ id: `${i}`, text: 'y'.repeat(1_000) })), items_omitted: 7 },
  };

  it('returns an answer that fits unchanged', () => {
    expect(fitJson({ a: 1, b: ['x'] }, 100, count)).toBe('{"a":1,"b":["x"]}');
  });

  it('shrinks any answer into the budget: ids whole, long strings end in …, cut lists counted', () => {
    for (const budget of [100, 500, 5_000]) {
      const text = fitJson(huge, budget, count);
      expect(count(text)).toBeLessThanOrEqual(budget);
      const out = JSON.parse(text);
      expect(out.truncated).toBe(true);
      expect(out.id).toBe(id);
      expect(out.name).toMatch(/^N*…$/);
      expect(out.aliases.length + out.aliases_omitted).toBe(500);
      expect(out.nested.items.length + out.nested.items_omitted).toBe(300 + 7);
    }
  });

  it('keeps the leading keys when even the smallest form of every field is too big', () => {
    const wide = Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`field_${i}`, i]));
    const text = fitJson({ id, ...wide }, 100, count);
    expect(count(text)).toBeLessThanOrEqual(100);
    const out = JSON.parse(text);
    expect(out).toMatchObject({ id, field_0: 0, truncated: true });
    expect(Object.keys(out).length).toBeLessThan(200);
  });
});

describe('budgetCounter', () => {
  it('never counts fewer tokens than one per 4 characters, whatever the model tokenizer says', () => {
    const oneToken = () => 1;
    const counter = budgetCounter(oneToken);
    expect(counter('a'.repeat(4_000))).toBe(1_000);
    expect(counter('ab')).toBe(1);
    expect(budgetCounter(() => 90)('short')).toBe(90);
  });
});
