import { describe, expect, it } from 'vitest';
import { resolveRecallSettings } from '../settings/index.js';
import { rankCandidates } from './rank.js';
import { UNRETRIEVED_STALE_FACTOR } from './stale.js';
import { candidateWith } from '../../../test/support/recall-candidates.js';

const candidate = candidateWith({
  content: 'The billing service stores invoices in PostgreSQL',
  importance: 1,
  createdAt: '2024-06-01T00:00:00Z',
  vector: { raw: 0.9, rank: 1 },
});

describe('stale memories in ranking', () => {
  const settings = resolveRecallSettings('default');
  const context = {};

  it('ranks a memory flagged unretrieved lower, by the stale factor, and says why', () => {
    const [fresh] = rankCandidates([candidate('a')], settings, context);
    const [stale] = rankCandidates([candidate('a', { staleReason: 'unretrieved' })], settings, context);
    expect(stale!.score).toBeCloseTo(fresh!.score * UNRETRIEVED_STALE_FACTOR);
    expect(stale!.explanation).toMatchObject({ stale: UNRETRIEVED_STALE_FACTOR, staleReason: 'unretrieved' });
    expect(fresh!.explanation).toMatchObject({ stale: 1, staleReason: null });
  });

  it('does not lower an expired one (questions about the past still need it), nor a pinned one', () => {
    const [expired] = rankCandidates([candidate('a', { staleReason: 'expired' })], settings, context);
    const [plain] = rankCandidates([candidate('a')], settings, context);
    expect(expired!.explanation).toMatchObject({ stale: 1, staleReason: 'expired' });
    expect(expired!.score).toBe(plain!.score);
    const [fresh] = rankCandidates([candidate('a', { pinned: true })], settings, context);
    const [pinned] = rankCandidates([candidate('a', { pinned: true, staleReason: 'unretrieved' })], settings, context);
    expect(pinned!.score).toBeCloseTo(fresh!.score);
  });
});
