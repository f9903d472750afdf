import type { Services } from '../../src/app.js';
import { nearestInNamespace } from '../../src/db/index.js';
import { beforeEach, describe, expect, it } from '../support/fixture.js';
import type { GraphQLClient } from '../support/graphql.js';

// Tenants share one vector index and one full-text index (Neo4j 5.26 Community): neither another
// tenant's near-copies nor its term statistics may reach a namespace's answers.
describe('tenant isolation in the shared indexes', () => {
  let services: Services;
  let gql: GraphQLClient;
  let fresh: (prefix: string) => string;
  beforeEach(({ services: fixture, graphql, freshNamespace }) => {
    services = fixture;
    gql = graphql;
    fresh = freshNamespace;
  });

  it("semantic dedup finds the namespace's own near-copy although other tenants hold closer ones", async () => {
    const original = 'Our team deploys the billing service every Tuesday afternoon.';
    const paraphrase = 'Our team deploys the billing service each Tuesday afternoon.'; // cosine 0.99 (remember.int.test.ts)
    const mine = fresh('iso-mine');
    const first = await services.remember.remember({ content: original, namespace: mine });
    // Six other tenants store the paraphrase itself: the index's top 5 for it are all theirs.
    for (let i = 0; i < 6; i++) await services.remember.remember({ content: paraphrase, namespace: fresh('iso-other') });

    const again = await services.remember.remember({ content: paraphrase, namespace: mine });
    expect(again.dedup.action).toBe('DUPLICATE_SEMANTIC');
    expect(again.dedup.existingId).toBe(first.memory.id);
  });

  it('vector candidates of a small namespace are exact even when another namespace fills the index top', async () => {
    const mine = fresh('iso-exact');
    const other = fresh('iso-crowd');
    const own = await services.remember.rememberBatch(
      ['Invoices are archived after seven years', 'The cafeteria opens at eight', 'Backups run nightly at two'].map((content) => ({
        content,
        namespace: mine,
      })),
    );
    await services.remember.rememberBatch(
      Array.from({ length: 60 }, (_, i) => ({
        content: `Invoices are archived after seven years, policy revision ${i}`,
        namespace: other,
      })),
    );
    const [vector] = await services.embedder.embed(['how long are invoices archived']);
    const result = await nearestInNamespace(services.executor, [Array.from(vector!)], { namespace: mine, limit: 3 });
    expect(result.path).toBe('exact');
    expect(result.hits[0]!.map((h) => h.memoryId).sort()).toEqual(own.map((o) => o.result!.memory.id).sort());
    expect(result.hits[0]![0]!.memoryId).toBe(own[0]!.result!.memory.id);
  });

  it("explain's keyword scores do not move when another namespace changes the index's term statistics", async () => {
    const mine = fresh('iso-bm25');
    const other = fresh('iso-bm25-other');
    await services.remember.remember({ content: 'Our zephyrine deployment uses blue-green switches', namespace: mine });
    const explainKeyword = async () => {
      const data = await gql.data<{ recall: { items: Array<{ explain: { keyword: { raw: number; normalized: number } | null } }> } }>(
        `query ($ns: String) { recall(query: "zephyrine deployment", namespace: $ns, explain: true) { items { explain { keyword { raw normalized } } } } }`,
        { ns: mine },
      );
      return data.recall.items[0]!.explain.keyword!;
    };
    const before = await explainKeyword();
    const outcomes = await services.remember.rememberBatch(
      Array.from({ length: 40 }, (_, i) => ({
        content: `zephyrine note ${i}: zephyrine zephyrine deployment window ${i * 7}`,
        namespace: other,
      })),
    );
    expect(outcomes.every((o) => !o.error)).toBe(true);
    const after = await explainKeyword();
    expect(after).toEqual(before);
  });

  it('a recall makes no round trip for rerank vectors and still reranks', async () => {
    const ns = fresh('iso-trips');
    await services.remember.rememberBatch(
      ['Grafana dashboards show the p99 latency', 'Alerting routes pages to the on-call phone', 'The p99 latency budget is 250 ms'].map(
        (content) => ({ content, namespace: ns }),
      ),
    );
    const operations: string[] = [];
    const stop = services.executor.onQuery((event) => operations.push(event.cypher));
    try {
      const outcome = await services.recall.recall({ query: 'p99 latency', namespace: ns, trackAccess: false });
      expect(outcome.rerankApplied).toBe(true);
      expect(outcome.items.length).toBeGreaterThan(0);
    } finally {
      stop();
    }
    // One hydration query (it also computes the similarities the reranker uses), no vector fetch.
    expect(
      operations.filter(
        (c) => c.includes('vector.similarity.cosine') && c.includes('MEMORY_RETURN') === false && c.includes('isConstraint'),
      ),
    ).toHaveLength(1);
    expect(operations.filter((c) => c.includes('c.embedding AS embedding'))).toHaveLength(0);
  });
});
