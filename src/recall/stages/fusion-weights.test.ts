import { describe, expect, it } from 'vitest';
import { candidate } from '../../../test/support/recall-candidates.js';
import { resolveRecallSettings } from '../settings/index.js';
import { fuseScores } from './fuse.js';
import { alphaForSize, legLead, queryAlpha, type StoreAwareSettings } from './fusion-weights.js';

const STORE: StoreAwareSettings = { alpha: 0.6, alphaLarge: 0.4, smallStore: 1_000, largeStore: 20_000, confidence: 0, agreement: 0 };

describe('alphaForSize', () => {
  it('is alpha up to smallStore, alphaLarge from largeStore, log-interpolated between', () => {
    expect(alphaForSize(STORE, 200)).toBeCloseTo(0.6);
    expect(alphaForSize(STORE, 1_000)).toBeCloseTo(0.6);
    expect(alphaForSize(STORE, 20_000)).toBeCloseTo(0.4);
    expect(alphaForSize(STORE, 50_000)).toBeCloseTo(0.4);
    // The geometric middle of 1,000 and 20,000 is halfway.
    expect(alphaForSize(STORE, Math.sqrt(1_000 * 20_000))).toBeCloseTo(0.5);
  });

  it('leaves alpha as it is without alphaLarge or without a count', () => {
    expect(alphaForSize({ ...STORE, alphaLarge: null }, 20_000)).toBe(0.6);
    expect(alphaForSize(STORE, null)).toBe(0.6);
  });
});

describe('queryAlpha', () => {
  const sure = [0.95, 0.6, 0.59, 0.58, 0.57, 0.56, 0.55, 0.54, 0.53, 0.52, 0.51];
  const flat = [0.6, 0.599, 0.598, 0.597, 0.596, 0.595, 0.594, 0.593, 0.592, 0.591, 0.2];

  it('measures a leg by its top score over its 10th, in its own standard deviations', () => {
    expect(legLead(sure)).toBeGreaterThan(legLead(flat));
    expect(legLead([1])).toBe(0);
    expect(legLead([1, 1, 1])).toBe(0);
  });

  it('moves alpha toward the leg that is surer of its head, within [0.05, 0.95]', () => {
    const settings = { ...STORE, alphaLarge: null, confidence: 0.4 };
    expect(queryAlpha(settings, null, sure, flat)).toBeGreaterThan(0.6);
    expect(queryAlpha(settings, null, flat, sure)).toBeLessThan(0.6);
    expect(queryAlpha({ ...settings, confidence: 1 }, null, sure, [0.5, 0.5, 0.5])).toBeLessThanOrEqual(0.95);
    // Off, or a leg silent: the size's alpha.
    expect(queryAlpha({ ...settings, confidence: 0 }, null, sure, flat)).toBe(0.6);
    expect(queryAlpha(settings, null, sure, [])).toBe(0.6);
  });
});

describe('fuseScores — fusion that knows the store', () => {
  const candidates = [
    candidate('vectorBest', { vector: { raw: 0.9, rank: 1 }, keyword: { raw: 2, rank: 3 } }),
    candidate('keywordBest', { vector: { raw: 0.7, rank: 3 }, keyword: { raw: 9, rank: 1 } }),
    candidate('middle', { vector: { raw: 0.8, rank: 2 }, keyword: { raw: 5, rank: 2 } }),
  ];
  const settings = resolveRecallSettings('default', { legs: { entity: false }, fusion: { alpha: 0.7, alphaLarge: 0.3 } });
  const top = (memories: number | null) => fuseScores(candidates, settings, { memories }).sort((a, b) => b.fused - a.fused)[0]!;

  it('lets the vector leg lead a small store and the keyword leg a large one, and says so in the weights', () => {
    expect(top(500).candidate.memoryId).toBe('vectorBest');
    expect(top(500).weights).toEqual({ vector: 0.7, text: expect.closeTo(0.3, 10), entity: 0, agreement: 0, memories: 500 });
    expect(top(30_000).candidate.memoryId).toBe('keywordBest');
    expect(top(30_000).weights.vector).toBeCloseTo(0.3);
    expect(top(30_000).weights.memories).toBe(30_000);
  });

  it("adds the agreement bonus to a candidate in both legs' heads only", () => {
    const lone = candidate('vectorOnly', { vector: { raw: 0.85, rank: 2 } });
    const agreeing = resolveRecallSettings('default', { legs: { entity: false }, fusion: { agreement: 0.5 } });
    const plain = resolveRecallSettings('default', { legs: { entity: false } });
    const byId = (s: typeof plain) => new Map(fuseScores([...candidates, lone], s).map((f) => [f.candidate.memoryId, f]));
    const off = byId(plain);
    const on = byId(agreeing);
    expect(on.get('middle')!.weights.agreement).toBe(0.5);
    expect(on.get('middle')!.fused).toBeCloseTo((off.get('middle')!.fused + 0.5) / 1.5);
    expect(on.get('vectorOnly')!.fused).toBeCloseTo(off.get('vectorOnly')!.fused / 1.5);
  });
});
