import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Services } from '../../src/app.js';
import { startServer, type RunningServer } from '../../src/server.js';
import { graphqlClient } from '../support/graphql.js';
import { callTool, newClient } from '../support/mcp.js';
import { cleanNamespace, testServices, uniqueNamespace } from '../support/services.js';

const REMEMBER = `mutation ($content: String!, $ns: String) { remember(input: {content: $content, namespace: $ns}) { memory { id } } }`;
const ENTITY = `query ($name: String, $ns: String) { entity(name: $name, namespace: $ns) { name type aliases mentions } }`;

// Sentences written for this test: a named service with an apposition, a project, a product, a
// versioned name, and an alias given by "formerly known as".
const MEMORIES = [
  'Osprey, the invoicing service, moved to Postgres 16 last week and Tomasz Berg maintains it.',
  'We kicked off project Larkspur to rebuild the partner onboarding.',
  'The support team switched to the Beacon product for chat because it handles attachments.',
  'Pegasus, formerly known as Skyline, is the booking backend.',
];

describe('named things an agent mentions become entities at write time (GraphQL and MCP)', () => {
  let services: Services;
  let server: RunningServer;
  let client: Client;
  let gql: Awaited<ReturnType<typeof graphqlClient>>;
  const ns = uniqueNamespace('named-things');

  beforeAll(async () => {
    services = testServices({ DEFAULT_NAMESPACE: ns });
    await services.embedder.load();
    gql = await graphqlClient(services);
    server = await startServer(services, { host: '127.0.0.1', port: 0 });
    client = newClient();
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url.replace(/\/graphql$/, '/mcp'))));
    for (const content of MEMORIES) await gql.data(REMEMBER, { content, ns });
  }, 180_000);

  afterAll(async () => {
    await client?.close();
    await cleanNamespace(services, ns);
    await server?.close();
    await gql?.stop();
    await services?.executor.close();
  });

  it('GraphQL entity(name:) finds the service, project, product and versioned name, typed', async () => {
    const entity = async (name: string) => (await gql.data(ENTITY, { name, ns })).entity;
    expect(await entity('Osprey')).toMatchObject({ name: 'Osprey', type: 'system', aliases: ['invoicing service'], mentions: 1 });
    expect(await entity('Larkspur')).toMatchObject({ name: 'Larkspur', type: 'project' });
    expect(await entity('Beacon')).toMatchObject({ name: 'Beacon', type: 'tool' });
    expect(await entity('postgres 16')).toMatchObject({ name: 'Postgres 16', type: 'tool' });
    expect(await entity('PostgreSQL')).toMatchObject({ type: 'tool' });
  });

  it('resolves an alias the text gave to the entity it names', async () => {
    expect((await gql.data(ENTITY, { name: 'invoicing service', ns })).entity).toMatchObject({ name: 'Osprey' });
    expect((await gql.data(ENTITY, { name: 'Skyline', ns })).entity).toMatchObject({ name: 'Pegasus', aliases: ['Skyline'] });
    expect((await gql.data(ENTITY, { name: 'Nightingale', ns })).entity).toBeNull();
  });

  it('the entity leg reaches memories that mention an entity the question names by an alias, and explains its share', async () => {
    const outcome = await services.recall.recall({
      query: 'Which database does the invoicing service use?',
      namespace: ns,
      trackAccess: false,
    });
    const osprey = outcome.ranked.find((r) => r.candidate.content.startsWith('Osprey'));
    expect(osprey?.explanation.entity).toMatchObject({ rank: 1, normalized: 1 });
    for (const other of outcome.ranked.filter((r) => r !== osprey)) expect(other.explanation.entity).toBeNull();
    // Switched off: no entity share.
    const plain = await services.recall.recall({
      query: 'Which database does the invoicing service use?',
      namespace: ns,
      overrides: { legs: { entity: false } },
      trackAccess: false,
    });
    expect(plain.ranked.every((r) => r.explanation.entity === null)).toBe(true);
  });

  it('MCP get_entity finds the same names', async () => {
    for (const [name, expected] of [
      ['Osprey', { name: 'Osprey', type: 'system' }],
      ['Larkspur', { name: 'Larkspur', type: 'project' }],
      ['Beacon', { name: 'Beacon', type: 'tool' }],
      ['Postgres 16', { name: 'Postgres 16', type: 'tool' }],
      ['Skyline', { name: 'Pegasus' }],
    ] as const) {
      const got = await callTool(client, 'get_entity', { name, namespace: ns });
      expect(got.isError, got.text.slice(0, 200)).toBe(false);
      expect(got.json).toMatchObject(expected);
    }
    expect((await callTool(client, 'get_entity', { name: 'the', namespace: ns })).json.error.code).toBe('NOT_FOUND');
  });
});
