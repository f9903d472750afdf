import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { Client } from '@modelcontextprotocol/client';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Services } from '../../src/app.js';
import { startServer, type RunningServer } from '../../src/server.js';
import { namespaceToken } from '../../src/text/index.js';
import { graphqlClient, type GraphQLClient } from '../support/graphql.js';
import { callTool, newClient } from '../support/mcp.js';
import { cleanNamespace, testServices, uniqueNamespace } from '../support/services.js';

/**
 * A filter never hides a match that exists (src/recall/scope.ts): a session's three memories sit
 * among 2,000 others of the namespace, every one of the others a better match for the question
 * (its words, and the question's own vector), so the legs' top `limit × 4` holds none of the three.
 */
const OTHERS = 2_000;
const SESSION = 'session-needle';
const QUERY = 'What is the status of the deployment pipeline?';
const MINE = [
  'Mara asked to move the retro to Thursday.',
  'The coffee machine on the third floor is fixed.',
  'Order more whiteboard markers for the design room.',
];

// Direct Cypher: 2,000 memories in well under a second (the write path would embed each).
const SEED_OTHERS = `
UNWIND range(0, toInteger($n) - 1) AS i
CREATE (m:Memory {
  id: $ids[i], namespace: $namespace, namespaceToken: $token, name: 'other ' + i,
  content: 'Deployment pipeline status ' + i + ': the deployment pipeline is green.', contentHash: 'other-' + i,
  dedupKey: $namespace + ':other-' + i, type: 'fact', importance: 0.5, tags: ['ops'], sessionId: 'other-' + (i % 40),
  createdAt: $now, updatedAt: $now, timelineKey: $now + '|' + i, accessCount: 0, temporal: 'persistent', pinned: false })
CREATE (m)-[:HAS_CHUNK]->(c:Chunk { id: $ids[i] + ':0', namespace: $namespace, index: 0, text: m.content,
  startChar: 0, endChar: size(m.content), contentHash: m.contentHash })
WITH c
CALL db.create.setNodeVectorProperty(c, 'embedding', $vector)`;

const RECALL = `query ($q: String!, $ns: String, $filters: RecallFilters) {
  recall(query: $q, namespace: $ns, limit: 10, filters: $filters) { items { memory { id sessionId } } }
}`;
const SEARCH = `query ($q: String!, $ns: String, $filters: RecallFilters, $limit: Int) {
  search(query: $q, namespace: $ns, limit: $limit, filters: $filters) { hits { id } hasMore }
}`;

describe('a filter never hides a match: a session among 2,000 other memories, over GraphQL and MCP', () => {
  let services: Services;
  let server: RunningServer;
  let client: Client;
  let gql: GraphQLClient;
  const ns = uniqueNamespace('filters');
  let mine: string[] = [];

  beforeAll(async () => {
    services = testServices({ DEFAULT_NAMESPACE: ns });
    await services.embedder.load();
    const [vector] = await services.embedder.embed([QUERY]);
    await services.executor.write('test.seed', SEED_OTHERS, {
      n: OTHERS,
      ids: Array.from({ length: OTHERS }, () => randomUUID()),
      namespace: ns,
      token: namespaceToken(ns),
      now: new Date().toISOString(),
      vector: Array.from(vector!),
    });
    const stored = await services.remember.rememberBatch(
      MINE.map((content) => ({ content, namespace: ns, sessionId: SESSION, tags: ['needle', 'office'], type: 'episodic' })),
    );
    mine = stored.map((o) => o.result!.memory.id).sort();
    server = await startServer(services, { host: '127.0.0.1', port: 0 });
    client = newClient();
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url.replace(/\/graphql$/, '/mcp'))));
    gql = await graphqlClient(services);
  }, 120_000);

  afterAll(async () => {
    await client?.close();
    await gql?.stop();
    if (services) await cleanNamespace(services, ns);
    await server?.close();
    await services?.executor.close();
  }, 60_000);

  it('the premise: unfiltered, the others fill the answer', async () => {
    const { recall } = await gql.data(RECALL, { q: QUERY, ns });
    expect(recall.items).toHaveLength(10);
    expect(recall.items.some((i: { memory: { sessionId: string } }) => i.memory.sessionId === SESSION)).toBe(false);
  });

  it('GraphQL recall(filters.sessionId) and search(filters) answer all three', async () => {
    const { recall } = await gql.data(RECALL, { q: QUERY, ns, filters: { sessionId: SESSION } });
    expect(recall.items.map((i: { memory: { id: string } }) => i.memory.id).sort()).toEqual(mine);

    for (const filters of [{ sessionId: SESSION }, { tags: ['needle'] }, { types: ['episodic'], tags: ['office'] }]) {
      const { search } = await gql.data(SEARCH, { q: QUERY, ns, filters, limit: 20 });
      expect(search.hits.map((h: { id: string }) => h.id).sort(), JSON.stringify(filters)).toEqual(mine);
      expect(search.hasMore).toBe(false);
    }
  });

  it('MCP recall and search take the same filters and answer all three', async () => {
    const recalled = await callTool(client, 'recall', { query: QUERY, namespace: ns, filters: { session_id: SESSION } });
    expect(recalled.isError, recalled.text).toBe(false);
    const list = JSON.parse(recalled.text.slice(recalled.text.lastIndexOf('\n{') + 1));
    expect(list.memories.map((m: { id: string }) => m.id).sort()).toEqual(mine);

    for (const filters of [{ session_id: SESSION }, { tags: ['needle'], types: ['episodic'] }]) {
      const found = await callTool(client, 'search', { query: QUERY, namespace: ns, limit: 20, filters });
      expect(found.isError, found.text).toBe(false);
      expect(found.json.hits.map((h: { id: string }) => h.id).sort(), JSON.stringify(filters)).toEqual(mine);
    }
  });

  it('a broad filter is widened until the page is full', async () => {
    // Every memory passes the time filter; a page of 30 is full, best first.
    const { search } = await gql.data(SEARCH, { q: QUERY, ns, filters: { occurredAfter: '2000-01-01T00:00:00Z' }, limit: 30 });
    expect(search.hits).toHaveLength(30);
    expect(search.hasMore).toBe(true);
    const none = await gql.data(SEARCH, { q: QUERY, ns, filters: { sessionId: 'no-such-session' }, limit: 10 });
    expect(none.search.hits).toEqual([]);
  });
});
