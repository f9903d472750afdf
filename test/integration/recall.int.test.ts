import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Services } from '../../src/app.js';
import { graphqlClient } from '../support/graphql.js';
import { cleanNamespace, testServices, uniqueNamespace } from '../support/services.js';

const RECALL = `
query Recall($query: String!, $ns: String, $limit: Int, $budget: Int, $filters: RecallFilters) {
  recall(query: $query, namespace: $ns, limit: $limit, tokenBudget: $budget, filters: $filters, explain: true) {
    items { score tokens memory { id content type tags importance sessionId }
      explain { method vector { raw normalized rank } keyword { raw normalized rank } fused graphBoost gravity hub resolution recency importance rerank final } }
    totalTokens budgetUsed prompt boostTimedOut rerankApplied
  }
}`;

interface Item {
  score: number;
  tokens: number;
  memory: { id: string; content: string; type: string; tags: string[]; importance: number; sessionId: string | null };
  explain: {
    vector: { raw: number } | null;
    keyword: { raw: number } | null;
    fused: number;
    graphBoost: number;
    gravity: number;
    resolution: number;
    final: number;
  };
}

const MEMORIES = [
  {
    key: 'kafka',
    content: 'Kafka ingests the clickstream events from the storefront.',
    sessionId: 's1',
    occurredAt: '2024-01-10T10:00:00Z',
  },
  { key: 'redis', content: 'Redis caches the session tokens for the checkout flow.', sessionId: 's1', occurredAt: '2024-02-10T10:00:00Z' },
  {
    key: 'cat',
    content: 'My grey cat naps on the radiator every afternoon.',
    sessionId: 's2',
    occurredAt: '2024-03-10T10:00:00Z',
    tags: ['pets'],
  },
  {
    key: 'flux',
    content: 'The XK42 flux regulator part number must be reordered before March.',
    sessionId: 's2',
    occurredAt: '2024-04-10T10:00:00Z',
  },
  {
    key: 'decision',
    content: 'We decided to use Postgres over MySQL for the billing ledger.',
    sessionId: 's3',
    occurredAt: '2024-05-10T10:00:00Z',
  },
  {
    key: 'pref',
    content: 'I prefer short answers with code examples first.',
    sessionId: 's3',
    occurredAt: '2024-06-10T10:00:00Z',
    type: 'procedural',
  },
  {
    key: 'hiking',
    content: 'Dana went hiking in the Alps last summer and loved the glaciers.',
    sessionId: 's4',
    occurredAt: '2023-08-01T10:00:00Z',
  },
];

describe('recall against the real Neo4j', () => {
  let services: Services;
  let gql: Awaited<ReturnType<typeof graphqlClient>>;
  const namespace = uniqueNamespace('recall');
  const other = uniqueNamespace('recall-other');
  const ids: Record<string, string> = {};

  const recall = async (query: string, vars: Record<string, unknown> = {}) =>
    (
      await gql.data<{ recall: { items: Item[]; totalTokens: number; budgetUsed: number; prompt: string; boostTimedOut: boolean } }>(
        RECALL,
        { query, ns: namespace, ...vars },
      )
    ).recall;
  const find = (items: Item[], key: string) => items.find((i) => i.memory.id === ids[key]);

  beforeAll(async () => {
    // A generous boost deadline: on a busy CI machine the default 500 ms can expire mid-walk.
    // The graph boost is an option (off by default): these tests turn it on.
    services = testServices({ GRAPH_BOOST_ENABLED: 'true' });
    await services.embedder.load();
    gql = await graphqlClient(services);
    const outcomes = await services.remember.rememberBatch(MEMORIES.map(({ key: _key, ...m }) => ({ ...m, namespace })));
    outcomes.forEach((o, i) => (ids[MEMORIES[i]!.key] = o.result!.memory.id));
    // What the deep path would add: Kafka feeds Redis (a relation between two linked entities).
    await services.executor.write(
      'test.relation',
      `MATCH (k:Entity {namespace: $ns, canonicalName: 'kafka'}), (r:Entity {namespace: $ns, canonicalName: 'redis'})
       MERGE (k)-[rel:RELATES_TO]->(r) SET rel.type = 'feeds', rel.strength = 1.0, rel.confidence = 0.9, rel.mentions = 1`,
      { ns: namespace },
    );
    await services.remember.remember({ content: 'Kafka ingests the clickstream events from the storefront.', namespace: other });
  });
  afterAll(async () => {
    await cleanNamespace(services, namespace);
    await cleanNamespace(services, other);
    await gql.stop();
    await services.executor.close();
  });

  it('vector leg: finds a paraphrase that shares no keyword', async () => {
    const { items } = await recall('Which feline sleeps on the heater?');
    expect(items[0]!.memory.id).toBe(ids.cat);
    expect(items[0]!.explain.vector!.raw).toBeGreaterThan(0.5);
    expect(items[0]!.explain.keyword).toBeNull();
  });

  it('keyword leg: finds a rare token through the full-text index', async () => {
    const { items } = await recall('XK42');
    const hit = find(items, 'flux')!;
    expect(hit.explain.keyword!.raw).toBeGreaterThan(0);
    expect(items[0]!.memory.id).toBe(ids.flux);
  });

  it('fusion: a memory found by both legs carries both normalized scores in its explanation', async () => {
    const { items } = await recall('clickstream events ingestion');
    const hit = find(items, 'kafka')!;
    expect(hit.explain.vector).not.toBeNull();
    expect(hit.explain.keyword).not.toBeNull();
    expect(items[0]!.memory.id).toBe(ids.kafka);
  });

  it('graph boost: a memory reachable only through an entity hop is boosted and returned', async () => {
    const { items } = await recall('Kafka');
    const hop = find(items, 'redis');
    expect(hop, 'the Redis memory is one RELATES_TO hop from Kafka').toBeDefined();
    expect(hop!.explain.graphBoost).toBeGreaterThan(0);
    expect(find(items, 'kafka')!.explain.graphBoost).toBeGreaterThan(hop!.explain.graphBoost);
  });

  it('dampening: decisions get the resolution boost', async () => {
    const { items } = await recall('billing ledger database');
    expect(find(items, 'decision')!.explain.resolution).toBeCloseTo(1.2);
  });

  it('the GraphQL explanation keeps the removed stages\' deprecated fields, each "not applied"', async () => {
    const { items } = await recall('feline heater');
    const cat = find(items, 'cat')!.explain as Item['explain'] & { hub: number; recency: number };
    expect([cat.gravity, cat.hub, cat.recency]).toEqual([1, 1, 1]);
    expect(cat.final).toBeGreaterThan(0);
  });

  it('filters by type, tags, session, time range and importance', async () => {
    const byType = await recall('what do we use', { filters: { types: ['decision'] } });
    expect(byType.items.map((i) => i.memory.id)).toEqual([ids.decision]);
    const byTag = await recall('cat radiator', { filters: { tags: ['pets'] } });
    expect(byTag.items.map((i) => i.memory.id)).toEqual([ids.cat]);
    const bySession = await recall('session tokens checkout', { filters: { sessionId: 's1' } });
    expect(bySession.items.every((i) => i.memory.sessionId === 's1')).toBe(true);
    const byTime = await recall('hiking glaciers Alps', { filters: { occurredAfter: '2024-01-01T00:00:00Z' } });
    expect(byTime.items.map((i) => i.memory.id)).not.toContain(ids.hiking);
    const byImportance = await recall('cat radiator', { filters: { minImportance: 0.99 } });
    expect(byImportance.items.every((i) => i.memory.importance >= 0.99 || i.memory.type === 'decision')).toBe(true);
  });

  it('token budget: never exceeded; constraints and procedural memories claim it first and lead the prompt', async () => {
    const budget = 30;
    const result = await recall('what do we use for billing, sessions and answers', { budget, limit: 10 });
    expect(result.totalTokens).toBeLessThanOrEqual(budget);
    expect(result.items.reduce((sum, i) => sum + i.tokens, 0)).toBe(result.totalTokens);
    expect(result.budgetUsed).toBeCloseTo(result.totalTokens / budget, 5);
    const ids_ = result.items.map((i) => i.memory.id);
    expect(ids_).toEqual(expect.arrayContaining([ids.decision, ids.pref]));
    const lines = result.prompt.split('\n');
    expect(lines[0]).toBe('<memory>');
    expect(lines.at(-1)).toBe('</memory>');
    expect(lines.slice(1, 3).every((l) => l.startsWith('[DECISION]') || l.startsWith('[PROCEDURAL]'))).toBe(true);
  });

  it('namespace isolation: never returns another namespace’s memories', async () => {
    const { items } = await recall('Kafka clickstream events');
    const foreign = await services.executor.read<{ id: string }>('test.foreign', 'MATCH (m:Memory {namespace: $ns}) RETURN m.id AS id', {
      ns: other,
    });
    expect(foreign).toHaveLength(1);
    expect(items.map((i) => i.memory.id)).not.toContain(foreign[0]!.id);
  });

  it('queries made of Lucene syntax or only symbols do not error', async () => {
    for (const query of ['C++ && (foo) "bar" ~ * ? : \\ /', '***', ':', 'AND OR NOT', 'path/to/file.ts', '🙂']) {
      const result = await gql.exec(RECALL, { query, ns: namespace });
      expect(result.errors, query).toBeUndefined();
    }
  });

  it('rejects an empty query and an out-of-range limit with BAD_USER_INPUT', async () => {
    expect((await gql.exec(RECALL, { query: '  ', ns: namespace })).errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect((await gql.exec(RECALL, { query: 'x', ns: namespace, limit: 0 })).errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
  });

  it('records access off the critical path', async () => {
    const { items } = await recall('XK42 flux regulator');
    await expect
      .poll(
        async () =>
          (
            await services.executor.read<{ n: number }>(
              'test.access',
              'MATCH (m:Memory {id: $id}) RETURN coalesce(m.accessCount, 0) AS n',
              { id: items[0]!.memory.id },
            )
          )[0]!.n,
        { timeout: 10_000 },
      )
      .toBeGreaterThan(0);
  });

  it('search, timeline and memories(ids): progressive disclosure', async () => {
    const { search } = await gql.data(
      `query ($ns: String) { search(query: "Kafka clickstream", namespace: $ns, limit: 2) { hits { id title type tokenEstimate } hasMore offset } }`,
      { ns: namespace },
    );
    expect(search.hits[0].id).toBe(ids.kafka);
    expect(search.hits[0].tokenEstimate).toBeGreaterThan(0);
    const { timeline } = await gql.data(
      `query ($ns: String, $id: ID) { timeline(anchor: $id, namespace: $ns, before: 1, after: 1) { anchor { id } before { id } after { id } } }`,
      { ns: namespace, id: ids.redis },
    );
    expect(timeline).toEqual({ anchor: { id: ids.redis }, before: [{ id: ids.kafka }], after: [{ id: ids.cat }] });
    const { memories } = await gql.data(`query ($ids: [ID!]!) { memories(ids: $ids) { id } }`, { ids: [ids.cat, 'no-such-id', ids.flux] });
    expect(memories).toEqual([{ id: ids.cat }, null, { id: ids.flux }]);
  });
});
