import type { Services } from '../../src/app.js';
import { nearestInNamespace } from '../../src/db/search/index.js';
import { beforeEach, describe, expect, it } from '../support/fixture.js';
import type { GraphQLClient } from '../support/graphql.js';
import { LOAD_RECALL_CANDIDATES, RECALL_CONTEXT } from '../../src/db/search/load-memories.js';

// Tenants share one vector index and one full-text index: neither another tenant's near-copies nor
// its term statistics may reach a namespace's answers. The vector index filters by namespace
// inside the index (SEARCH … WHERE c.namespace, migration 017).
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
    const paraphrase = 'Our team deploys the billing service on every Tuesday afternoon.'; // a duplicate (remember.int.test.ts)
    const mine = fresh('iso-mine');
    const first = await services.remember.remember({ content: original, namespace: mine });
    // Six other tenants store the paraphrase itself: the index's top 5 for it are all theirs.
    for (let i = 0; i < 6; i++) await services.remember.remember({ content: paraphrase, namespace: fresh('iso-other') });

    const again = await services.remember.remember({ content: paraphrase, namespace: mine });
    expect(again.dedup.action).toBe('DUPLICATE_SEMANTIC');
    expect(again.dedup.existingId).toBe(first.memory.id);
  });

  it('vector candidates of a small namespace are its own even when another namespace fills the index top', async () => {
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
    expect(result.path).toBe('index');
    expect(result.hits[0]!.map((h) => h.memoryId).sort()).toEqual(own.map((o) => o.result!.memory.id).sort());
    expect(result.hits[0]![0]!.memoryId).toBe(own[0]!.result!.memory.id);
  });

  it("a batch's 500 vectors against a namespace of 1,500 chunks: one statement, each vector's own memory first", async () => {
    // bench:recall's store stopped building here on 5.26: the batch's dedup scanned the namespace
    // once per vector (500 × 1,500 comparisons) and ran into the 5 s read timeout.
    const mine = fresh('iso-batch');
    const random = mulberry32(7);
    const vectors = Array.from({ length: 1_500 }, () => unit(Array.from({ length: 384 }, () => random() - 0.5)));
    await services.executor.write(
      'test.chunks',
      `UNWIND range(0, size($vectors) - 1) AS i
       CREATE (m:Memory {id: $namespace + '-m' + i, namespace: $namespace, contentHash: 'h' + i})
              -[:HAS_CHUNK]->(:Chunk {id: $namespace + '-c' + i, namespace: $namespace, embedding: $vectors[i]})`,
      { namespace: mine, vectors },
    );
    const operations: string[] = [];
    const stop = services.executor.onQuery(({ cypher }) => operations.push(cypher));
    try {
      const batch = vectors.slice(0, 500).map((v) => v.map((x) => x * 0.999));
      const result = await nearestInNamespace(services.executor, batch, { namespace: mine, limit: 5 });
      expect(operations).toHaveLength(1);
      expect(result.path).toBe('index');
      result.hits.forEach((hits, i) => {
        expect(hits).toHaveLength(5);
        expect(hits[0]).toMatchObject({ memoryId: `${mine}-m${i}`, contentHash: `h${i}` });
        expect(hits[0]!.score).toBeGreaterThan(0.9999);
      });
    } finally {
      stop();
    }
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
    // One hydration query (it also computes the similarities the reranker uses), the context
    // stage's one read (its newcomers' similarities with it), no vector fetch.
    const similarities = operations.filter((c) => c.includes('vector.similarity.cosine') && c.includes('isConstraint'));
    expect(similarities.filter((c) => c === LOAD_RECALL_CANDIDATES)).toHaveLength(1);
    expect(similarities.filter((c) => c !== LOAD_RECALL_CANDIDATES && c !== RECALL_CONTEXT)).toEqual([]);
    expect(operations.filter((c) => c.includes('c.embedding AS embedding'))).toHaveLength(0);
  });
});

function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function unit(v: number[]): number[] {
  const norm = Math.hypot(...v);
  return v.map((x) => x / norm);
}
