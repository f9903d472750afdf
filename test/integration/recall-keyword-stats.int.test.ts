import type { Services } from '../../src/app.js';
import { namespaceToken } from '../../src/text/index.js';
import { beforeEach, describe, expect, it } from '../support/fixture.js';

// The full-text index is shared by every namespace and its BM25 statistics (document frequencies,
// mean length) are index-wide: another tenant's writes move a namespace's keyword ranking.
// keywordStats.namespaceScoped re-scores the keyword leg's hits with the namespace's own
// statistics (recall/stages/keyword-rescore.ts), so the same namespace ranks the same way.
describe("a namespace's keyword ranking and other tenants' data", () => {
  let services: Services;
  let fresh: (prefix: string) => string;
  beforeEach(({ services: fixture, freshNamespace }) => {
    services = fixture;
    fresh = freshNamespace;
  });

  it('is identical before and after a large other namespace with skewed term frequencies, with the setting on', async () => {
    const mine = fresh('kw-mine');
    const other = fresh('kw-crowd');
    // In this namespace "zorblat" is rare (1 memory) and "quindle" common (2): the zorblat memory leads.
    const stored = await services.remember.rememberBatch(
      [
        'The zorblat reading was taken at noon',
        'The quindle reading was taken at dawn',
        'Quindle values were recorded in the ledger yesterday',
      ].map((content) => ({ content, namespace: mine })),
    );
    const [zorblat, quindle] = stored.map((s) => s.result!.memory.id);
    const ranking = async (namespaceScoped: boolean) => {
      const outcome = await services.recall.recall({
        query: 'zorblat quindle reading',
        namespace: mine,
        recipe: 'keywordOnly',
        overrides: { keywordStats: { namespaceScoped } },
        tokenBudget: null,
        trackAccess: false,
      });
      return outcome.ranked.map((r) => r.candidate.memoryId);
    };
    const scopedBefore = await ranking(true);
    const plainBefore = await ranking(false);
    expect(scopedBefore.indexOf(zorblat!)).toBeLessThan(scopedBefore.indexOf(quindle!));

    // Another tenant writes 300 long memories that all say "zorblat": index-wide, it is now common.
    await services.executor.write(
      'test.crowd',
      `UNWIND range(1, 300) AS i
       CREATE (:Memory {id: $namespace + '-' + i, namespace: $namespace, namespaceToken: $token, type: 'episodic',
                        createdAt: '2026-01-01T00:00:00Z',
                        content: 'zorblat zorblat zorblat batch ' + i + ' ' + $filler})`,
      { namespace: other, token: namespaceToken(other), filler: 'status line '.repeat(40) },
    );

    expect(await ranking(true)).toEqual(scopedBefore);
    // Without the setting the index-wide statistics reorder this namespace's answer.
    const plainAfter = await ranking(false);
    expect(plainAfter).not.toEqual(plainBefore);
    expect(plainAfter.indexOf(quindle!)).toBeLessThan(plainAfter.indexOf(zorblat!));
  });
});
