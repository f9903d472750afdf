import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Services } from '../../src/app.js';
import { startServer, type RunningServer } from '../../src/server.js';
import { callTool, newClient } from '../support/mcp.js';
import { cleanNamespace, testServices, uniqueNamespace } from '../support/services.js';

/** GraphQL and MCP share one edge (src/api): the same refusal for the same request, whichever the transport. */
describe('one rule for both transports', () => {
  let services: Services;
  let server: RunningServer;
  const ns = uniqueNamespace('edge-rules');

  const graphql = async (query: string, variables: Record<string, unknown>) => {
    const response = await fetch(server.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query, variables }),
    });
    return (await response.json()) as { data?: any; errors?: Array<{ message: string; extensions: { code: string } }> };
  };
  const mcp = async () => {
    const client = newClient();
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url.replace(/\/graphql$/, '/mcp'))));
    return client;
  };

  beforeAll(async () => {
    services = testServices({ DEFAULT_NAMESPACE: ns, MAX_PAGE_SIZE: '5' });
    await services.embedder.load();
    server = await startServer(services, { host: '127.0.0.1', port: 0 });
  });
  afterAll(async () => {
    await cleanNamespace(services, ns);
    await server?.close();
    await services?.executor.close();
  });

  it('refuses an entity page over MAX_PAGE_SIZE with LIMIT_EXCEEDED over GraphQL and MCP alike (never clamps it)', async () => {
    const viaGraphql = await graphql('query E($n: String, $f: Int) { entities(namespace: $n, first: $f) { edges { cursor } } }', {
      n: ns,
      f: 6,
    });
    expect(viaGraphql.errors?.[0]?.extensions.code).toBe('LIMIT_EXCEEDED');
    const client = await mcp();
    const viaMcp = await callTool(client, 'search_entities', { query: 'x', namespace: ns, limit: 6 });
    expect(viaMcp).toMatchObject({ isError: true, json: { error: { code: 'LIMIT_EXCEEDED', details: { field: 'limit', max: 5 } } } });
    expect((await callTool(client, 'search_entities', { query: 'x', namespace: ns, limit: 5 })).isError).toBe(false);
    await client.close();
  });

  it('has one recall maximum: the recall settings’ maxLimit, refused alike beyond it', async () => {
    const max = services.recall.settingsFor().budget.maxLimit;
    const client = await mcp();
    // Over MCP the schema said 50; a limit up to the maximum is now taken there as over GraphQL.
    expect((await callTool(client, 'recall', { query: 'anything', namespace: ns, limit: Math.min(max, 60) })).isError).toBe(false);
    const viaMcp = await callTool(client, 'recall', { query: 'anything', namespace: ns, limit: max + 1 });
    await client.close();
    const viaGraphql = await graphql('query R($n: String, $l: Int) { recall(query: "anything", namespace: $n, limit: $l) { prompt } }', {
      n: ns,
      l: max + 1,
    });
    expect(viaGraphql.errors?.[0]?.extensions.code).toBe('BAD_USER_INPUT');
    expect(viaMcp).toMatchObject({ isError: true, json: { error: { code: 'BAD_USER_INPUT', message: viaGraphql.errors![0]!.message } } });
  });

  it('refuses an overlong forget reason with the same message over both', async () => {
    const id = (
      await graphql('mutation M($i: RememberInput!) { remember(input: $i) { memory { id } } }', {
        i: { content: 'Edge rules hold.', namespace: ns },
      })
    ).data.remember.memory.id;
    const reason = 'r'.repeat(1_001);
    const viaGraphql = await graphql('mutation F($id: ID!, $r: String) { forget(id: $id, reason: $r) { id } }', { id, r: reason });
    const client = await mcp();
    const viaMcp = await callTool(client, 'forget', { id, reason });
    await client.close();
    expect(viaGraphql.errors?.[0]?.extensions.code).toBe('BAD_USER_INPUT');
    expect(viaMcp).toMatchObject({ isError: true, json: { error: { code: 'BAD_USER_INPUT', message: viaGraphql.errors![0]!.message } } });
  });
});
