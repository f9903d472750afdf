import { describe, expect, it } from 'vitest';
import { hasTemporalAnchor, resolutionFactor } from './resolution.js';
import { LINEAR_TIME_BUDGET_MS, timeMs } from '../../../test/support/linear-time.js';
import { resolveRecallSettings } from '../settings/index.js';
import type { RecallCandidate } from '../types.js';
import { candidate as recallCandidate } from '../../../test/support/recall-candidates.js';

const candidate = (overrides: Partial<RecallCandidate> = {}): RecallCandidate =>
  recallCandidate('m', { content: 'The billing service stores invoices in PostgreSQL', ...overrides });

const settings = resolveRecallSettings('default');

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
    const off = resolveRecallSettings('default', { resolution: { enabled: false } }).resolution;
    const decision = candidate({ type: 'decision', content: 'We decided to use Neo4j Community Edition for the memory graph' });
    expect(resolutionFactor(decision, settings.resolution)).toBe(1.2);
    expect(resolutionFactor(decision, off)).toBe(1);
  });
});

describe('hasTemporalAnchor on hostile input', () => {
  it('stays linear on 50,000-character texts built to make its patterns backtrack', () => {
    const hostile = [
      '2024-'.repeat(10_000), // date prefixes that never complete
      '1'.repeat(50_000), // digits for \d{4} and the "5th May" branch
      'May '.repeat(12_500), // "May" never followed by a number
      '1st '.repeat(12_500), // ordinals never followed by May
      'septembe'.repeat(6_250), // month-name prefixes
    ];
    for (const text of hostile) {
      expect(text.length).toBeGreaterThanOrEqual(50_000);
      expect(
        timeMs(() => hasTemporalAnchor(text)),
        text.slice(0, 10),
      ).toBeLessThan(LINEAR_TIME_BUDGET_MS);
    }
  });
});
