import { describe, expect, it } from 'vitest';
import { resolveRecallSettings } from './settings/index.js';
import { rankCandidates } from './rank.js';
import { UNRETRIEVED_STALE_FACTOR } from './stale.js';
import { candidateWith } from '../../test/support/recall-candidates.js';

const candidate = candidateWith({
  content: 'The billing service stores invoices in PostgreSQL',
  importance: 1,
  createdAt: '2024-06-01T00:00:00Z',
  vector: { raw: 0.9, rank: 1 },
});

describe('stale memories in ranking', () => {
  // Validity is an option (off by default); the interplay with the stale factor is tested with it on.
  const settings = resolveRecallSettings('default', { validity: { enabled: true } });
  const context = { query: 'where are billing invoices stored', now: new Date('2024-06-30T00:00:00Z') };

  it('ranks a memory flagged unretrieved lower, by the stale factor, and says why', () => {
    const [fresh] = rankCandidates([candidate('a')], settings, context);
    const [stale] = rankCandidates([candidate('a', { staleReason: 'unretrieved' })], settings, context);
    expect(stale!.score).toBeCloseTo(fresh!.score * UNRETRIEVED_STALE_FACTOR);
    expect(stale!.explanation).toMatchObject({ stale: UNRETRIEVED_STALE_FACTOR, staleReason: 'unretrieved' });
    expect(fresh!.explanation).toMatchObject({ stale: 1, staleReason: null });
  });

  it('leaves an expired one to the validity factor (no double penalty), and a pinned one unpenalized', () => {
    const [expired] = rankCandidates([candidate('a', { staleReason: 'expired', validUntil: '2024-06-02T00:00:00Z' })], settings, context);
    expect(expired!.explanation.stale).toBe(1);
    expect(expired!.explanation.validity).toBeLessThan(1);
    const [fresh] = rankCandidates([candidate('a', { pinned: true })], settings, context);
    const [pinned] = rankCandidates([candidate('a', { pinned: true, staleReason: 'unretrieved' })], settings, context);
    expect(pinned!.score).toBeCloseTo(fresh!.score);
  });
});
