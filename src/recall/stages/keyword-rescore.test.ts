import { describe, expect, it } from 'vitest';
import { lightStem, namespaceBm25, termCounts, type NamespaceTermStats } from './keyword-rescore.js';

describe('lightStem', () => {
  it('joins the forms the English analyzer joins, the same on both sides', () => {
    expect(['hike', 'hikes', 'hiked', 'hiking'].map(lightStem)).toEqual(['hik', 'hik', 'hik', 'hik']);
    expect(['parties', 'party'].map(lightStem)).toEqual(['party', 'party']);
    expect(['running', 'run', 'runs'].map(lightStem)).toEqual(['run', 'run', 'run']);
    expect(['glass', 'glasses'].map(lightStem)).toEqual(['glass', 'glass']);
    expect(lightStem('bus')).toBe('bus');
  });

  it('runs in linear time on a hostile 50,000-character word', () => {
    const started = performance.now();
    termCounts(`${'s'.repeat(50_000)} ${'ing'.repeat(20_000)}`);
    expect(performance.now() - started).toBeLessThan(500);
  });
});

describe('namespaceBm25', () => {
  const stats = (df: Record<string, number>, documents = 100, meanChars = 40): NamespaceTermStats => ({
    documents,
    meanChars,
    df: new Map(Object.entries(df).map(([word, n]) => [lightStem(word), n])),
  });

  it('is BM25 (k1 1.2, b 0.75) from the namespace counts and the memory length', () => {
    const content = 'Melanie painted a lake last week'; // 32 characters
    const idf = Math.log(1 + (100 - 4 + 0.5) / (4 + 0.5));
    const norm = 1 - 0.75 + (0.75 * 32) / 40;
    expect(namespaceBm25(content, stats({ lake: 4 }), { k1: 1.2, b: 0.75 })).toBeCloseTo((idf * 2.2) / (1 + 1.2 * norm));
  });

  it('ranks a rare term above a common one, and a shorter memory above a longer one', () => {
    const s = stats({ paint: 2, week: 80 });
    const k = { k1: 1.2, b: 0.75 };
    expect(namespaceBm25('she paints', s, k)).toBeGreaterThan(namespaceBm25('this week', s, k));
    expect(namespaceBm25('she paints', s, k)).toBeGreaterThan(namespaceBm25('she paints walls, doors, chairs and everything else', s, k));
    expect(namespaceBm25('nothing here', s, k)).toBe(0);
  });
});
