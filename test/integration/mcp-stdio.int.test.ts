import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Services } from '../../src/app.js';
import { TEST_NEO4J, TEST_NEO4J_URI } from '../support/test-neo4j.js';
import { callTool, EXPECTED_TOOLS, newClient } from '../support/mcp.js';
import { cleanNamespace, testServices, uniqueNamespace } from '../support/services.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const KEY = 'mcp-stdio-rw-0123456789abcdef';

describe('MCP over stdio: `npm run mcp` spawned by the SDK client', () => {
  let services: Services;
  const ns = uniqueNamespace('mcp-stdio');
  const elsewhere = uniqueNamespace('mcp-stdio-other');
  const apiKeys = JSON.stringify([{ key: KEY, name: 'stdio-agent', namespaces: [ns] }]);

  const spawn = (env: Record<string, string>) =>
    new StdioClientTransport({
      command: process.execPath,
      args: ['--import', 'tsx', 'src/cli/mcp.ts'],
      cwd: ROOT,
      stderr: 'pipe',
      env: {
        PATH: process.env.PATH ?? '',
        NEO4J_URI: process.env.TEST_NEO4J_URI ?? TEST_NEO4J_URI,
        NEO4J_PASSWORD: process.env.TEST_NEO4J_PASSWORD ?? TEST_NEO4J.password,
        DEFAULT_NAMESPACE: ns,
        WORKER_ENABLED: 'false',
        LOG_LEVEL: 'warn',
        ...(process.env.EMBEDDING_MODEL_DIR ? { EMBEDDING_MODEL_DIR: process.env.EMBEDDING_MODEL_DIR } : {}),
        ...env,
      },
    });

  beforeAll(async () => {
    services = testServices();
    await services.embedder.load();
  });
  afterAll(async () => {
    await cleanNamespace(services, ns);
    await services.executor.close();
  });

  it('serves the tools to a spawned process: remember → recall → get_entity, and the key decides the namespaces', async () => {
    const client = newClient();
    await client.connect(spawn({ API_KEYS: apiKeys, MNEMOGRAPH_API_KEY: KEY }));
    expect((await client.listTools()).tools.map((t) => t.name).sort()).toEqual(EXPECTED_TOOLS);

    const remembered = await callTool(client, 'remember', { content: 'Priya Patel moved the billing service to Postgres 16 in Lisbon.' });
    expect(remembered).toMatchObject({ isError: false, json: { dedup: 'STORED_NEW' } });
    await callTool(client, 'create_entities', { entities: [{ name: 'Priya Patel', type: 'person' }] });
    const observed = await callTool(client, 'add_observations', { observations: [{ entity: 'Priya Patel', content: 'owns the billing service' }] });
    expect(observed.json.observations[0].outcome).toBe('created');

    const recalled = await callTool(client, 'recall', { query: 'billing service database', max_tokens: 300 });
    expect(recalled.text).toContain('Postgres 16');
    expect(services.embedder.countTokens(recalled.text)).toBeLessThanOrEqual(300);
    const entity = await callTool(client, 'get_entity', { name: 'priya patel' });
    expect(entity.json.facts).toEqual([expect.objectContaining({ aspect: 'facts', content: 'owns the billing service' })]);

    const denied = await callTool(client, 'search', { query: 'billing', namespace: elsewhere });
    expect(denied).toMatchObject({ isError: true, json: { error: { code: 'FORBIDDEN' } } });
    await client.close();
  });

  it('refuses to start without a key when API keys are configured', async () => {
    const transport = spawn({ API_KEYS: apiKeys });
    let stderr = '';
    transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    await expect(newClient().connect(transport)).rejects.toThrow();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(stderr).toContain('[UNAUTHENTICATED]');
  });
});
