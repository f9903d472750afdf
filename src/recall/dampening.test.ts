import { describe, expect, it } from 'vitest';
import {
  dampeningFactors,
  gravityFactor,
  hasTemporalAnchor,
  hubFactor,
  hubThreshold,
  percentileOf,
  resolutionFactor,
} from './dampening.js';
import { queryTokens } from '../text/lucene.js';
import { resolveRecallSettings } from './settings/index.js';
import type { LegExplanation, RecallCandidate } from './types.js';
import { candidate as recallCandidate } from '../../test/support/recall-candidates.js';

const candidate = (overrides: Partial<RecallCandidate> = {}): RecallCandidate =>
  recallCandidate('m', { content: 'The billing service stores invoices in PostgreSQL', ...overrides });

const leg = (normalized: number): LegExplanation => ({ raw: normalized, normalized, rank: 1 });
// Gravity and hub dampening are options (off by default): their arithmetic is tested with them on.
const settings = resolveRecallSettings('default', { dampening: { gravity: { enabled: true }, hub: { enabled: true } } }).dampening;
const tokens = (query: string) => new Set(queryTokens(query));
/** Gravity's factor for an index score v: the excess over the threshold (cosine 0.3 → 0.65) is halved. */
const damped = (v: number) => (0.65 + 0.5 * (v - 0.65)) / v;

describe('gravity', () => {
  const unrelated = candidate({ content: 'Lunch with the design team went well' });
  /** The excess-over-threshold formula, an option since the default became the design's flat factor (#32). */
  const excess = resolveRecallSettings('default', { dampening: { gravity: { formula: 'excess' } } }).dampening;

  it("by default multiplies a vector-only result sharing no word with the query by the penalty (the design's rule)", () => {
    const q = tokens('billing database');
    expect(settings.gravity.formula).toBe('flat');
    for (const v of [0.7, 0.8, 0.95])
      expect(gravityFactor({ candidate: unrelated, vector: leg(v), keyword: null, hint: null }, q, settings.gravity)).toBe(0.5);
    expect(gravityFactor({ candidate: unrelated, vector: leg(0.6), keyword: null, hint: null }, q, settings.gravity)).toBe(1);
    expect(gravityFactor({ candidate: candidate(), vector: leg(0.8), keyword: null, hint: null }, q, settings.gravity)).toBe(1);
  });

  it('halves the excess over the threshold of a vector-only result that shares no word with the query', () => {
    const input = { candidate: unrelated, vector: leg(0.8), keyword: null, hint: null };
    expect(gravityFactor(input, tokens('billing database'), excess.gravity)).toBeCloseTo(damped(0.8), 10);
    expect(damped(0.8)).toBeLessThan(1);
  });

  it('leaves a vector-only result alone when one word overlaps (case-insensitive)', () => {
    const input = { candidate: candidate(), vector: leg(0.8), keyword: null, hint: null };
    expect(gravityFactor(input, tokens('BILLING database'), excess.gravity)).toBe(1);
  });

  it('never penalizes results with lexical evidence, weak vector scores or only a graph link', () => {
    const q = tokens('billing database');
    expect(gravityFactor({ candidate: unrelated, vector: leg(0.8), keyword: leg(0.4), hint: null }, q, excess.gravity)).toBe(1);
    expect(gravityFactor({ candidate: unrelated, vector: leg(0.8), keyword: null, hint: leg(0.4) }, q, excess.gravity)).toBe(1);
    expect(gravityFactor({ candidate: unrelated, vector: leg(0.3), keyword: null, hint: null }, q, excess.gravity)).toBe(1);
    const graphOnly = { candidate: { ...unrelated, graphBoost: 1 }, vector: null, keyword: null, hint: null };
    expect(gravityFactor(graphOnly, q, excess.gravity)).toBe(1);
  });

  it('compares the cosine, not the index score (1 + cos) / 2, with minScore', () => {
    const q = tokens('billing database');
    // index score 0.6 is cosine 0.2: below the 0.3 threshold, so exempt.
    expect(gravityFactor({ candidate: unrelated, vector: leg(0.6), keyword: null, hint: null }, q, excess.gravity)).toBe(1);
    // index score 0.9 is cosine 0.8: above it, dampened.
    expect(gravityFactor({ candidate: unrelated, vector: leg(0.9), keyword: null, hint: null }, q, excess.gravity)).toBeCloseTo(
      damped(0.9),
      10,
    );
  });

  it('never drops a closer match below a weaker one the threshold exempts', () => {
    const q = tokens('billing database');
    const scored = [0.6, 0.64, 0.66, 0.7, 0.8, 0.95].map(
      (v) => v * gravityFactor({ candidate: unrelated, vector: leg(v), keyword: null, hint: null }, q, excess.gravity),
    );
    for (let i = 1; i < scored.length; i++) expect(scored[i]!).toBeGreaterThan(scored[i - 1]!);
    expect(scored[5]!).toBeLessThan(0.95);
  });

  it('does nothing for a query without meaningful words', () => {
    expect(
      gravityFactor({ candidate: unrelated, vector: leg(0.9), keyword: null, hint: null }, tokens('what is it?'), excess.gravity),
    ).toBe(1);
  });

  it('can be switched off', () => {
    const off = resolveRecallSettings('default', { dampening: { gravity: { enabled: false } } }).dampening;
    const input = { candidate: unrelated, vector: leg(0.8), keyword: null, hint: null };
    expect(dampeningFactors(input, { queryTokens: tokens('billing'), hubThreshold: Infinity }, off).gravity).toBe(1);
    expect(dampeningFactors(input, { queryTokens: tokens('billing'), hubThreshold: Infinity }, settings).gravity).toBeCloseTo(0.5, 10);
  });
});

describe('hub', () => {
  const mentions = (...counts: number[]) => counts.map((mentions, i) => ({ entityId: `e${mentions}-${i}`, mentions }));

  it('penalizes only when ALL linked entities are above the threshold', () => {
    expect(hubFactor(candidate({ entityMentions: mentions(500, 900) }), 100, settings.hub)).toBe(0.7);
    expect(hubFactor(candidate({ entityMentions: mentions(500, 3) }), 100, settings.hub)).toBe(1);
    expect(hubFactor(candidate({ entityMentions: mentions(100) }), 100, settings.hub)).toBe(1);
  });

  it('leaves memories without entities alone', () => {
    expect(hubFactor(candidate({ entityMentions: [] }), 0, settings.hub)).toBe(1);
  });

  it('computes the P90 threshold over distinct entities, so a shared hub still stands out', () => {
    const hub = { entityId: 'signet', mentions: 1000 };
    const candidates = Array.from({ length: 12 }, (_, i) =>
      candidate({ memoryId: `m${i}`, entityMentions: [hub, { entityId: `small${i}`, mentions: i + 1 }] }),
    );
    candidates.push(candidate({ memoryId: 'hubOnly', entityMentions: [hub] }));
    const threshold = hubThreshold(candidates, 0.9);
    // 13 distinct entities: mentions 1..12 and 1000; nearest-rank P90 is the 12th value.
    expect(threshold).toBe(12);
    expect(hubFactor(candidates.at(-1) as RecallCandidate, threshold, settings.hub)).toBe(0.7);
    expect(hubFactor(candidates[0] as RecallCandidate, threshold, settings.hub)).toBe(1);
  });

  it('treats an empty entity set as having no hubs', () => {
    expect(hubThreshold([candidate()], 0.9)).toBe(Number.POSITIVE_INFINITY);
  });

  it('uses nearest-rank percentiles and never marks uniform counts as hubs', () => {
    expect(percentileOf([10, 1, 5, 3, 2, 8, 7, 4, 6, 9], 0.9)).toBe(9);
    expect(percentileOf([4], 0.9)).toBe(4);
    expect(percentileOf([5, 5, 5], 0.9)).toBe(5);
    expect(hubFactor(candidate({ entityMentions: mentions(5) }), percentileOf([5, 5, 5], 0.9), settings.hub)).toBe(1);
  });
});

describe('resolution', () => {
  it('boosts decisions and constraints by the full factor', () => {
    const text = 'We decided to use Neo4j Community Edition for the memory graph store';
    expect(resolutionFactor(candidate({ type: 'decision', content: text }), settings.resolution)).toBe(1.2);
    expect(resolutionFactor(candidate({ isConstraint: true, content: text }), settings.resolution)).toBe(1.2);
  });

  it('boosts temporal anchors by half the factor', () => {
    expect(
      resolutionFactor(candidate({ content: 'The billing migration finished on 2024-03-15 without any downtime' }), settings.resolution),
    ).toBeCloseTo(1.1);
    expect(
      resolutionFactor(candidate({ content: 'In September the team moved the billing service to Kubernetes' }), settings.resolution),
    ).toBeCloseTo(1.1);
  });

  it('gives nothing to short content, plain content or the modal "may"', () => {
    expect(resolutionFactor(candidate({ type: 'decision', content: 'Use pnpm.' }), settings.resolution)).toBe(1);
    expect(resolutionFactor(candidate(), settings.resolution)).toBe(1);
    expect(
      resolutionFactor(candidate({ content: 'The billing service may store invoices in PostgreSQL later on' }), settings.resolution),
    ).toBe(1);
  });

  it('recognizes dates and month names, not look-alikes', () => {
    expect(hasTemporalAnchor('released 2024-01-20')).toBe(true);
    expect(hasTemporalAnchor('on May 5 we shipped')).toBe(true);
    expect(hasTemporalAnchor('shipped 5th May')).toBe(true);
    expect(hasTemporalAnchor('it may rain')).toBe(false);
    expect(hasTemporalAnchor('version 2024-13-45')).toBe(false);
    expect(hasTemporalAnchor('ticket 12345')).toBe(false);
  });

  it('can be switched off', () => {
    const off = resolveRecallSettings('default', { dampening: { resolution: { enabled: false } } }).dampening;
    const input = {
      candidate: candidate({ type: 'decision', content: 'We decided to use Neo4j Community Edition for the memory graph' }),
      vector: null,
      keyword: null,
      hint: null,
    };
    expect(dampeningFactors(input, { queryTokens: new Set(), hubThreshold: Infinity }, off).resolution).toBe(1);
  });
});
