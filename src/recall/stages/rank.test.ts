import { describe, expect, it } from 'vitest';
import { resolveRecallSettings } from '../settings/index.js';
import { rankCandidates } from './rank.js';
import type { RecallSettingsOverrides } from '../settings/index.js';
import { candidateWith } from '../../../test/support/recall-candidates.js';

// These tests exercise the ranking arithmetic with the design's fusion values (alpha 0.7, max
// normalization, single-leg scores, boost 0.15), whatever the tuned defaults are.
const SEED_FUSION = { method: 'weighted', alpha: 0.7, keywordNormalization: 'max', missingLeg: 'single' } as const;
function seedSettings(preset: Parameters<typeof resolveRecallSettings>[0] = 'default', overrides: RecallSettingsOverrides = {}) {
  // The graph boost is an option (off by default): the default recipe is tested with it on.
  return resolveRecallSettings(preset, {
    ...overrides,
    graph: { ...(preset === 'default' ? { enabled: true } : {}), boostWeight: 0.15, ...overrides.graph },
    fusion: { ...SEED_FUSION, ...overrides.fusion },
  });
}

const candidate = candidateWith({
  content: 'The billing service stores invoices in PostgreSQL',
  importance: 1,
  createdAt: '2024-06-01T00:00:00Z',
});

const context = {};
const ids = (ranked: ReturnType<typeof rankCandidates>) => ranked.map((r) => r.candidate.memoryId);

describe('rankCandidates', () => {
  it('keeps a graph-boosted candidate that no leg found, scored by the boost alone', () => {
    const settings = seedSettings('default');
    const ranked = rankCandidates(
      [candidate('leg', { vector: { raw: 0.9, rank: 1 } }), candidate('graphOnly', { graphBoost: 1 })],
      settings,
      context,
    );
    const graphOnly = ranked.find((r) => r.candidate.memoryId === 'graphOnly');
    expect(graphOnly?.score).toBeCloseTo(0.15);
    expect(graphOnly?.explanation).toMatchObject({ fused: 0, graphBoost: 0.15, vector: null, keyword: null, hint: null });
  });

  it('adds the boost on top of the fused score, and only when the graph is enabled', () => {
    const pair = [
      candidate('plain', { vector: { raw: 0.6, rank: 1 } }),
      candidate('linked', { vector: { raw: 0.6, rank: 2 }, graphBoost: 1 }),
    ];
    const on = rankCandidates(pair, seedSettings('default', { importance: { enabled: false } }), context);
    expect(ids(on)).toEqual(['linked', 'plain']);
    expect(on[0]?.score).toBeCloseTo(0.6 + 0.15);
    const off = rankCandidates(pair, seedSettings('fast', { importance: { enabled: false } }), context);
    expect(off.map((r) => r.explanation.graphBoost)).toEqual([0, 0]);
    expect(ids(off)).toEqual(['linked', 'plain']); // equal scores: memoryId order
  });

  it('never drops a candidate and sorts by score, ties by memoryId', () => {
    const settings = seedSettings('default');
    const input = [candidate('c'), candidate('b'), candidate('a', { keyword: { raw: 1, rank: 1 } }), candidate('d')];
    const ranked = rankCandidates(input, settings, context);
    expect(ids(ranked)).toEqual(['a', 'b', 'c', 'd']);
    expect(ranked.map((r) => r.score)).toEqual([...ranked.map((r) => r.score)].sort((x, y) => y - x));
  });

  it('explains every factor, and the factors multiply out to the final score', () => {
    const settings = seedSettings('default');
    const may = { start: Date.parse('2024-05-01T00:00:00Z'), end: Date.parse('2024-05-31T23:59:59Z'), text: 'in May' };
    const ranked = rankCandidates(
      [
        candidate('decision', {
          type: 'decision',
          isConstraint: true,
          content: 'We decided to keep all billing invoices in PostgreSQL rather than S3',
          importance: 0.5,
          occurredAt: '2024-05-31T00:00:00Z',
          vector: { raw: 0.8, rank: 1 },
          keyword: { raw: 4, rank: 1 },
          graphBoost: 1,
        }),
        candidate('stale', {
          content: 'Lunch with the design team went well yesterday afternoon',
          vector: { raw: 0.75, rank: 2 },
          staleReason: 'unretrieved',
        }),
        candidate('other'),
      ],
      settings,
      { timeWindow: may },
    );
    for (const { score, explanation: e } of ranked) {
      expect(e.final).toBe(score);
      expect(score).toBeCloseTo((e.fused + e.graphBoost) * e.resolution * e.time * e.importance * e.stale);
      expect(e.rerank).toBeNull();
    }
    const decision = ranked.find((r) => r.candidate.memoryId === 'decision')?.explanation;
    expect(decision).toMatchObject({ method: 'weighted', resolution: 1.2, graphBoost: 0.15, time: 1.3, stale: 1 });
    expect(decision?.fused).toBeCloseTo(0.7 * 0.8 + 0.3 * 1);
    expect(decision?.importance).toBeCloseTo(0.9);
    const stale = ranked.find((r) => r.candidate.memoryId === 'stale')?.explanation;
    expect(stale).toMatchObject({ resolution: 1, time: 1, stale: 0.8, staleReason: 'unretrieved' });
  });

  it('ranks baselines by their own leg only', () => {
    const input = [
      candidate('kw', { keyword: { raw: 9, rank: 1 }, vector: { raw: 0.5, rank: 2 } }),
      candidate('vec', {
        keyword: { raw: 1, rank: 2 },
        vector: { raw: 0.9, rank: 1 },
        graphBoost: 1,
        type: 'decision',
        isConstraint: true,
      }),
    ];
    expect(ids(rankCandidates(input, seedSettings('keywordOnly'), context))).toEqual(['kw', 'vec']);
    const vectorOnly = rankCandidates(input, seedSettings('vectorOnly'), context);
    expect(ids(vectorOnly)).toEqual(['vec', 'kw']);
    expect(vectorOnly[0]?.score).toBeCloseTo(0.9);
  });

  it('fuses with RRF when asked, keeping boosts meaningful on the [0, 1] scale', () => {
    const settings = seedSettings('default', { fusion: { method: 'rrf' }, importance: { enabled: false } });
    const ranked = rankCandidates(
      [
        candidate('both', { vector: { raw: 0.9, rank: 1 }, keyword: { raw: 5, rank: 1 } }),
        candidate('one', { vector: { raw: 0.8, rank: 2 }, graphBoost: 1 }),
      ],
      settings,
      context,
    );
    expect(ranked[0]?.explanation.method).toBe('rrf');
    expect(ranked[0]?.explanation.fused).toBeCloseTo(1);
    expect(ranked.find((r) => r.candidate.memoryId === 'one')?.score).toBeCloseTo(1 / 62 / (2 / 61) + 0.15);
  });
});

describe('pin', () => {
  const settings = resolveRecallSettings('default', { graph: { enabled: false } });
  const found = { keyword: { raw: 2, rank: 1 } };

  it('a pinned memory skips the importance and stale penalties, and keeps its bonuses', () => {
    const low = { ...found, importance: 0, staleReason: 'unretrieved' };
    const ranked = rankCandidates([candidate('plain', low), candidate('pinned', { ...low, pinned: true })], settings, context);
    expect(ids(ranked)).toEqual(['pinned', 'plain']);
    const pinned = ranked[0]!;
    expect(pinned.explanation.pinned).toBe(true);
    expect(pinned.score).toBeCloseTo(pinned.explanation.fused * pinned.explanation.resolution, 10);
    expect(ranked[1]!.score).toBeCloseTo(pinned.score * 0.8 * 0.8, 10);
  });
});
