import type { Services } from '../../src/app.js';
import { unlinkCoMentions } from '../../src/db/queries/remember-write.js';
import { beforeEach, describe, expect, integrationTest } from '../support/fixture.js';
import type { GraphQLClient } from '../support/graphql.js';
import { replayingExecutor } from '../support/replaying-executor.js';
import { testServices } from '../support/services.js';

const REMEMBER = `mutation ($content: String!, $ns: String) { remember(input: {content: $content, namespace: $ns}) { memory { id } } }`;
const ENTITY = `query ($name: String, $ns: String) { entity(name: $name, namespace: $ns) { id name type mentions } }`;
const RECALL = `
query ($query: String!, $ns: String) {
  recall(query: $query, namespace: $ns, limit: 10, explain: true) {
    items { memory { id } explain { fused graphBoost final } }
    boostTimedOut
  }
}`;
const CO_MENTIONS = `
MATCH (a:Entity {namespace: $ns})-[r:RELATES_TO {type: 'co_mentioned'}]->(b:Entity)
RETURN a.canonicalName AS a, b.canonicalName AS b, r.mentions AS mentions, r.strength AS strength, r.memoryIds AS memoryIds
ORDER BY a, b`;

interface Edge {
  a: string;
  b: string;
  mentions: number;
  strength: number;
  memoryIds: string[];
}

// A generous boost deadline: on a busy machine the default can expire mid-walk.
// The graph boost is an option (off by default): these tests turn it on.
const it = integrationTest({ env: { GRAPH_BOOST_ENABLED: 'true' } });

describe('named entities and co-mention edges on the write path', () => {
  let services: Services;
  let gql: GraphQLClient;
  let fresh: (prefix: string) => string;
  beforeEach(({ services: fixture, graphql, freshNamespace }) => {
    services = fixture;
    gql = graphql;
    fresh = freshNamespace;
  });
  const remember = async (content: string, ns: string): Promise<string> => (await gql.data(REMEMBER, { content, ns })).remember.memory.id;
  const entity = async (name: string, ns: string) => (await gql.data(ENTITY, { name, ns })).entity;
  const coMentions = (ns: string) => services.executor.read<Edge & Record<string, unknown>>('test.coMentions', CO_MENTIONS, { ns });

  it('"Alice lives in Berlin and works at Acme" yields a person, a place and an organization right after remember', async () => {
    const ns = fresh('ner');
    await remember('Alice lives in Berlin and works at Acme.', ns);
    expect(await entity('Alice', ns)).toMatchObject({ name: 'Alice', type: 'person', mentions: 1 });
    expect(await entity('Berlin', ns)).toMatchObject({ name: 'Berlin', type: 'place', mentions: 1 });
    expect(await entity('acme', ns)).toMatchObject({ name: 'Acme', type: 'organization', mentions: 1 });
  }, 120_000);

  it('"… Ask Priya Nair about the migration." yields the person named after the opening verb, through remember (#32)', async () => {
    const ns = fresh('ask');
    await remember('Kestrel, our payments gateway, now runs on Postgres 16 in eu-west-1. Ask Priya Nair about the migration.', ns);
    expect(await entity('Priya Nair', ns)).toMatchObject({ name: 'Priya Nair', type: 'person', mentions: 1 });
    expect(await entity('Kestrel', ns)).toMatchObject({ name: 'Kestrel' });
    expect(await entity('PostgreSQL', ns)).toMatchObject({ name: 'PostgreSQL' });
  }, 120_000);

  it('relates entities of one memory by co-mention, counting each memory once, and a recall naming Alice reaches a memory about Berlin', async () => {
    const ns = fresh('co');
    const first = await remember('Alice lives in Berlin and works at Acme.', ns);
    const berlin = await remember('Berlin has great techno clubs and the rent is still cheap.', ns);
    const unrelated = await remember('The dentist appointment moved to the afternoon.', ns);

    const edges = await coMentions(ns);
    expect(edges.map((e) => [e.a, e.b, e.mentions, e.memoryIds])).toEqual([
      ['acme', 'alice', 1, [first]],
      ['acme', 'berlin', 1, [first]],
      ['alice', 'berlin', 1, [first]],
    ]);
    expect(edges[0]!.strength).toBeCloseTo(0.5, 6);

    const { recall } = await gql.data(RECALL, { query: 'What does Alice do in the evenings?', ns });
    expect(recall.boostTimedOut).toBe(false);
    const boost = (id: string) => recall.items.find((i: { memory: { id: string } }) => i.memory.id === id)?.explain.graphBoost ?? 0;
    expect(boost(first)).toBeGreaterThan(0); // names Alice
    expect(boost(berlin)).toBeGreaterThan(0); // one co-mention hop: Alice — Berlin
    expect(boost(berlin)).toBeLessThan(boost(first));
    expect(boost(unrelated)).toBe(0);

    // A second memory naming the same pair strengthens the edge.
    const again = await remember('Alice showed me her favourite bakery in Berlin.', ns);
    const alice = (await coMentions(ns)).find((e) => e.a === 'alice' && e.b === 'berlin')!;
    expect(alice.mentions).toBe(2);
    expect(alice.strength).toBeCloseTo(2 / 3, 6);
    expect([...alice.memoryIds].sort()).toEqual([first, again].sort());
  }, 180_000);

  it('counts nothing twice when the driver re-runs the committed write transaction', async () => {
    const replayed = testServices({}, { wrapExecutor: (executor) => replayingExecutor(executor).executor });
    try {
      const ns = fresh('co-replay');
      const result = await replayed.remember.remember({ content: 'My friend Priya moved to Lisbon to join Shopify.', namespace: ns });
      const id = result.memory.id;
      const edges = await coMentions(ns);
      expect(edges.map((e) => [e.a, e.b, e.mentions, e.memoryIds])).toEqual([
        ['lisbon', 'priya', 1, [id]],
        ['lisbon', 'shopify', 1, [id]],
        ['priya', 'shopify', 1, [id]],
      ]);
      const [marker] = await services.executor.read<{ pairs: string[] }>(
        'test.marker',
        'MATCH (m:Memory {id: $id}) RETURN m.coMentionPairs AS pairs',
        { id },
      );
      expect(marker!.pairs).toHaveLength(3);
      expect((await entity('Lisbon', ns)).mentions).toBe(1);
    } finally {
      await replayed.executor.close();
    }
  }, 180_000);

  it("takes a memory's co-mentions back (for forget), once, removing edges no memory holds", async () => {
    const ns = fresh('co-undo');
    const first = await remember('Alice lives in Berlin and works at Acme.', ns);
    const second = await remember('Alice showed me her favourite bakery in Berlin.', ns);
    const undo = (id: string) =>
      services.executor.writeTx('test.unlinkCoMentions', (tx) => unlinkCoMentions(tx, [id], new Date().toISOString()));
    await undo(first);
    await undo(first); // a re-run changes nothing
    const edges = await coMentions(ns);
    expect(edges.map((e) => [e.a, e.b, e.mentions, e.memoryIds])).toEqual([['alice', 'berlin', 1, [second]]]);
    expect(edges[0]!.strength).toBeCloseTo(0.5, 6);
    const [marker] = await services.executor.read<{ pairs: string[] | null }>(
      'test.marker',
      'MATCH (m:Memory {id: $id}) RETURN m.coMentionPairs AS pairs',
      { id: first },
    );
    expect(marker!.pairs).toBeNull();
    await undo(second);
    expect(await coMentions(ns)).toEqual([]);
  }, 180_000);

  it('creates no person, place or organization from capitalised common words', async () => {
    const ns = fresh('ner-none');
    await remember('Happy birthday! Summer is my favourite season. Great news: the build is green.', ns);
    await remember('ok sounds good, see you at 5', ns);
    const rows = await services.executor.read<{ n: number }>(
      'test.typed',
      `MATCH (e:Entity {namespace: $ns}) WHERE e.type IN ['person', 'organization', 'place'] RETURN count(e) AS n`,
      { ns },
    );
    expect(rows[0]!.n).toBe(0);
    expect(await coMentions(ns)).toEqual([]);
  }, 120_000);
});
