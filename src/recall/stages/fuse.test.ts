import { describe, expect, it } from 'vitest';
import { fuseScores, textNormalizer } from './fuse.js';
import { resolveRecallSettings } from '../settings/index.js';
import type { RecallSettingsOverrides } from '../settings/index.js';
import { candidate } from '../../../test/support/recall-candidates.js';

// These tests exercise the ranking arithmetic with the design's fusion values (alpha 0.7, max
// normalization, single-leg scores, boost 0.15), whatever the tuned defaults are.
const SEED_FUSION = { method: 'weighted', alpha: 0.7, keywordNormalization: 'max', missingLeg: 'single' } as const;
function seedSettings(preset: Parameters<typeof resolveRecallSettings>[0] = 'default', overrides: RecallSettingsOverrides = {}) {
  return resolveRecallSettings(preset, {
    ...overrides,
    graph: { boostWeight: 0.15, ...overrides.graph },
    fusion: { ...SEED_FUSION, ...overrides.fusion },
  });
}

const weighted = seedSettings('default');
const rrf = seedSettings('default', { fusion: { method: 'rrf' } });
const byId = (fused: ReturnType<typeof fuseScores>) => new Map(fused.map((f) => [f.candidate.memoryId, f]));

describe('fuseScores — weighted', () => {
  it('combines alpha × vector + (1 − alpha) × keyword normalized by the top keyword score', () => {
    const fused = byId(
      fuseScores(
        [
          candidate('a', { vector: { raw: 0.8, rank: 1 }, keyword: { raw: 5, rank: 2 } }),
          candidate('b', { keyword: { raw: 10, rank: 1 } }),
        ],
        weighted,
      ),
    );
    expect(fused.get('a')?.fused).toBeCloseTo(0.7 * 0.8 + 0.3 * 0.5);
    expect(fused.get('a')?.keyword).toEqual({ raw: 5, normalized: 0.5, rank: 2 });
    expect(fused.get('a')?.vector).toEqual({ raw: 0.8, normalized: 0.8, rank: 1 });
    // Only one leg: that score alone.
    expect(fused.get('b')?.fused).toBeCloseTo(1);
    expect(fused.get('b')?.vector).toBeNull();
  });

  it('keeps the vector score as the index returned it', () => {
    const [only] = fuseScores([candidate('a', { vector: { raw: 0.62, rank: 1 } })], weighted);
    expect(only?.fused).toBeCloseTo(0.62);
  });

  it('merges a hint match into the keyword score by max, never adding them up', () => {
    const fused = byId(
      fuseScores(
        [
          candidate('hintOnly', { vector: { raw: 0.5, rank: 1 }, hint: { raw: 8, rank: 1 } }),
          candidate('both', { vector: { raw: 0.5, rank: 2 }, keyword: { raw: 8, rank: 1 }, hint: { raw: 8, rank: 2 } }),
          candidate('weakKeyword', { vector: { raw: 0.5, rank: 3 }, keyword: { raw: 2, rank: 2 }, hint: { raw: 8, rank: 3 } }),
        ],
        weighted,
      ),
    );
    const expected = 0.7 * 0.5 + 0.3 * 1;
    expect(fused.get('hintOnly')?.fused).toBeCloseTo(expected);
    expect(fused.get('both')?.fused).toBeCloseTo(expected);
    expect(fused.get('weakKeyword')?.fused).toBeCloseTo(expected);
    expect(fused.get('weakKeyword')?.keyword?.normalized).toBeCloseTo(0.25);
  });

  it('supports min-max keyword normalization', () => {
    const settings = seedSettings('keywordOnly', { fusion: { keywordNormalization: 'minmax' } });
    const fused = byId(
      fuseScores(
        [
          candidate('a', { keyword: { raw: 2, rank: 3 } }),
          candidate('b', { keyword: { raw: 6, rank: 2 } }),
          candidate('c', { keyword: { raw: 10, rank: 1 } }),
        ],
        settings,
      ),
    );
    expect(fused.get('a')?.fused).toBeCloseTo(0);
    expect(fused.get('b')?.fused).toBeCloseTo(0.5);
    expect(fused.get('c')?.fused).toBeCloseTo(1);
    expect(textNormalizer([4, 4], 'minmax')(4)).toBe(1);
  });

  it("with missingLeg 'zero', a one-leg candidate counts the other leg as 0", () => {
    const settings = seedSettings('default', { fusion: { missingLeg: 'zero' } });
    const fused = byId(
      fuseScores([candidate('v', { vector: { raw: 0.9, rank: 1 } }), candidate('k', { keyword: { raw: 3, rank: 1 } })], settings),
    );
    expect(fused.get('v')?.fused).toBeCloseTo(0.7 * 0.9);
    expect(fused.get('k')?.fused).toBeCloseTo(0.3 * 1);
    // When the other leg found nothing at all in this query, the single score is used.
    const [alone] = fuseScores([candidate('v', { vector: { raw: 0.9, rank: 1 } })], settings);
    expect(alone?.fused).toBeCloseTo(0.9);
  });

  it('ignores legs switched off in the settings and unusable scores', () => {
    const vectorOnly = seedSettings('vectorOnly');
    const fused = byId(
      fuseScores(
        [
          candidate('a', { vector: { raw: 0.4, rank: 2 }, keyword: { raw: 100, rank: 1 } }),
          candidate('b', { vector: { raw: Number.NaN, rank: 1 }, keyword: { raw: 1, rank: 2 } }),
        ],
        vectorOnly,
      ),
    );
    expect(fused.get('a')?.fused).toBeCloseTo(0.4);
    expect(fused.get('a')?.keyword).toBeNull();
    expect(fused.get('b')?.fused).toBe(0);
    expect(fused.get('b')?.vector).toBeNull();
  });

  it('returns candidates in input order, including those with no score', () => {
    const fused = fuseScores([candidate('z'), candidate('a', { vector: { raw: 0.9, rank: 1 } })], weighted);
    expect(fused.map((f) => f.candidate.memoryId)).toEqual(['z', 'a']);
    expect(fused[0]?.fused).toBe(0);
  });
});

describe('fuseScores — rrf', () => {
  it('sums 1 / (k + rank) over the legs, scaled so a double first place is 1', () => {
    const fused = byId(
      fuseScores(
        [
          candidate('top', { vector: { raw: 0.9, rank: 1 }, keyword: { raw: 9, rank: 1 } }),
          candidate('vec', { vector: { raw: 0.8, rank: 2 } }),
          candidate('mid', { vector: { raw: 0.7, rank: 3 }, keyword: { raw: 1, rank: 5 } }),
        ],
        rrf,
      ),
    );
    const max = 2 / 61;
    expect(fused.get('top')?.fused).toBeCloseTo(1);
    expect(fused.get('vec')?.fused).toBeCloseTo(1 / 62 / max);
    expect(fused.get('mid')?.fused).toBeCloseTo((1 / 63 + 1 / 65) / max);
    expect(fused.get('mid')?.method).toBe('rrf');
  });

  it('orders like textbook RRF, which ignores score magnitudes', () => {
    const candidates = [
      candidate('a', { vector: { raw: 0.99, rank: 1 }, keyword: { raw: 1, rank: 9 } }),
      candidate('b', { vector: { raw: 0.5, rank: 4 }, keyword: { raw: 50, rank: 2 } }),
      candidate('c', { keyword: { raw: 60, rank: 1 } }),
    ];
    const order = fuseScores(candidates, rrf)
      .sort((x, y) => y.fused - x.fused)
      .map((f) => f.candidate.memoryId);
    expect(order).toEqual(['b', 'a', 'c']);
    const weightedOrder = fuseScores(candidates, weighted)
      .sort((x, y) => y.fused - x.fused)
      .map((f) => f.candidate.memoryId);
    expect(weightedOrder).toEqual(['c', 'a', 'b']);
  });

  it('takes the better of the keyword and hint ranks', () => {
    const fused = byId(
      fuseScores(
        [candidate('a', { keyword: { raw: 1, rank: 7 }, hint: { raw: 5, rank: 1 } }), candidate('b', { keyword: { raw: 9, rank: 1 } })],
        rrf,
      ),
    );
    expect(fused.get('a')?.fused).toBeCloseTo(1);
    expect(fused.get('b')?.fused).toBeCloseTo(1);
  });
});

describe('fuseScores — zscore', () => {
  const settings = resolveRecallSettings('default', { fusion: { method: 'zscore', alpha: 0.3 } });
  it('standardizes each leg over its own results and maps the sum to [0, 1]', () => {
    const fused = fuseScores(
      [
        candidate('both', { vector: { raw: 0.9, rank: 1 }, keyword: { raw: 12, rank: 1 } }),
        candidate('kw', { keyword: { raw: 9, rank: 2 } }),
        candidate('vec', { vector: { raw: 0.8, rank: 2 } }),
        candidate('last', { vector: { raw: 0.7, rank: 3 }, keyword: { raw: 6, rank: 3 } }),
      ],
      settings,
    );
    const byId = Object.fromEntries(fused.map((f) => [f.candidate.memoryId, f.fused]));
    expect(byId.both).toBe(1);
    expect(byId.last).toBe(0);
    // Both middle hits sit at z 0 in their leg and at the lowest z in the other; the keyword leg
    // weighs 0.7, so the keyword-only hit ranks above the vector-only one: (1 − 0.3·z) vs (1 − 0.7·z).
    const z = Math.sqrt(1.5);
    expect(byId.kw).toBeCloseTo((z - 0.3 * z) / (2 * z), 10);
    expect(byId.vec).toBeCloseTo((z - 0.7 * z) / (2 * z), 10);
  });

  it('does not care about a leg’s scale: multiplying BM25 scores changes nothing', () => {
    const make = (k: number) =>
      fuseScores(
        [
          candidate('a', { vector: { raw: 0.8, rank: 2 }, keyword: { raw: 3 * k, rank: 2 } }),
          candidate('b', { vector: { raw: 0.9, rank: 1 }, keyword: { raw: 1 * k, rank: 3 } }),
          candidate('c', { keyword: { raw: 9 * k, rank: 1 } }),
        ],
        settings,
      ).map((f) => f.fused);
    make(1).forEach((value, i) => expect(value).toBeCloseTo(make(37)[i]!, 12));
  });
});

describe('fuseScores — entity leg', () => {
  const legs = {
    a: { vector: { raw: 0.8, rank: 1 }, keyword: { raw: 4, rank: 2 } },
    b: { vector: { raw: 0.7, rank: 2 }, keyword: { raw: 5, rank: 1 }, entity: { raw: 0.6, rank: 1 } },
    c: { entity: { raw: 0.3, rank: 2 } },
  };
  const all = () => [candidate('a', legs.a), candidate('b', legs.b), candidate('c', legs.c)];

  it('adds entityWeight × its score relative to the best, scaled back into [0, 1], on every method', () => {
    for (const method of ['weighted', 'rrf', 'zscore'] as const) {
      const off = fuseScores(all(), resolveRecallSettings('default', { fusion: { method }, legs: { entity: false } }));
      const on = fuseScores(all(), resolveRecallSettings('default', { fusion: { method, entityWeight: 0.2 }, legs: { entity: true } }));
      expect(on.map((f) => f.entity?.normalized ?? null)).toEqual([null, 1, 0.5]);
      expect(on[0]!.fused).toBeCloseTo(off[0]!.fused / 1.2, 10);
      expect(on[1]!.fused).toBeCloseTo((off[1]!.fused + 0.2) / 1.2, 10);
      expect(on[2]!.fused).toBeCloseTo((off[2]!.fused + 0.1) / 1.2, 10);
      for (const f of on) expect(f.fused).toBeLessThanOrEqual(1);
    }
  });

  it('changes nothing when switched off, even for a candidate that carries its score', () => {
    const off = fuseScores(all(), resolveRecallSettings('default', { legs: { entity: false } }));
    expect(off.map((f) => f.entity)).toEqual([null, null, null]);
  });
});
