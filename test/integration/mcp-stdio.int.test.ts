import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Services } from '../../src/app.js';
import { TEST_NEO4J_ENV } from '../support/test-neo4j.js';
import { callTool, EXPECTED_TOOLS, newClient } from '../support/mcp.js';
import { cleanNamespace, testServices, uniqueNamespace } from '../support/services.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const BIN = (JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { bin: Record<string, string> }).bin['mnemograph-mcp']!;
const SLOW = { timeoutMs: 180_000 };
const KEY = 'mcp-stdio-rw-0123456789abcdef';

describe('MCP over stdio: the `mnemograph-mcp` bin and `npm run mcp`, spawned by the SDK client', () => {
  let services: Services;
  const ns = uniqueNamespace('mcp-stdio');
  const elsewhere = uniqueNamespace('mcp-stdio-other');
  const apiKeys = JSON.stringify([{ key: KEY, name: 'stdio-agent', namespaces: [ns] }]);

  /**
   * What users configure in their MCP client: the package's `bin` script (run through its
   * shebang) or `npm run --silent --prefix <repo> mcp`, spawned from another directory.
   */
  const spawn = (env: Record<string, string>, entry: 'bin' | 'npm' = 'bin') =>
    new StdioClientTransport({
      ...(entry === 'bin'
        ? { command: path.join(ROOT, BIN), args: [] }
        : { command: 'npm', args: ['run', '--silent', '--prefix', ROOT, 'mcp'] }),
      cwd: tmpdir(),
      stderr: 'pipe',
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? tmpdir(),
        ...TEST_NEO4J_ENV,
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

  it('the bin serves the tools: remember → recall → get_entity, and the key decides the namespaces', { timeout: 400_000 }, async () => {
    const client = newClient();
    await client.connect(spawn({ API_KEYS: apiKeys, MNEMOGRAPH_API_KEY: KEY }), { timeout: SLOW.timeoutMs });
    expect((await client.listTools()).tools.map((t) => t.name).sort()).toEqual(EXPECTED_TOOLS);

    const remembered = await callTool(client, 'remember', { content: 'Priya Patel moved the billing service to Postgres 16 in Lisbon.' });
    expect(remembered).toMatchObject({ isError: false, json: { dedup: 'STORED_NEW' } });
    await callTool(client, 'create_entities', { entities: [{ name: 'Priya Patel', type: 'person' }] });
    const observed = await callTool(client, 'add_observations', {
      observations: [{ entity: 'Priya Patel', content: 'owns the billing service' }],
    });
    expect(observed.json.observations[0].outcome).toBe('created');

    const recalled = await callTool(client, 'recall', { query: 'billing service database', max_tokens: 300 });
    expect(recalled.text).toContain('Postgres 16');
    expect(services.embedder.countTokens(recalled.text)).toBeLessThanOrEqual(300);
    const entity = await callTool(client, 'get_entity', { name: 'priya patel' });
    expect(entity.json.facts).toContainEqual(expect.objectContaining({ aspect: 'facts', content: 'owns the billing service' }));

    const denied = await callTool(client, 'search', { query: 'billing', namespace: elsewhere });
    expect(denied).toMatchObject({ isError: true, json: { error: { code: 'FORBIDDEN' } } });
    await client.close();
  });

  it('`npm run --silent --prefix <repo> mcp` serves them too, its calls in one bookmark chain', { timeout: 400_000 }, async () => {
    const client = newClient();
    await client.connect(spawn({ API_KEYS: apiKeys, MNEMOGRAPH_API_KEY: KEY }, 'npm'), { timeout: SLOW.timeoutMs });
    const remembered = await callTool(
      client,
      'remember',
      { content: 'Tomás Silva signed the Lisbon office lease with Nordlys Properties in May.' },
      SLOW,
    );
    expect(remembered).toMatchObject({ isError: false, json: { dedup: 'STORED_NEW' } });
    expect(remembered.meta?.['mnemograph/bookmark']).toMatch(/^[A-Za-z0-9_-]+$/);
    await callTool(client, 'create_entities', { entities: [{ name: 'Nordlys Properties', type: 'organization' }] }, SLOW);
    await callTool(
      client,
      'add_observations',
      { observations: [{ entity: 'Nordlys Properties', content: 'landlord of the Lisbon office' }] },
      SLOW,
    );
    const recalled = await callTool(client, 'recall', { query: 'Who is the landlord of the Lisbon office?', max_tokens: 300 }, SLOW);
    expect(recalled.text).toContain('Nordlys Properties');
    const entity = await callTool(client, 'get_entity', { name: 'nordlys properties' }, SLOW);
    expect(entity.json).toMatchObject({ name: 'Nordlys Properties', type: 'organization' });
    expect(entity.json.facts).toContainEqual(expect.objectContaining({ content: 'landlord of the Lisbon office' }));
    await client.close();
  });

  it('refuses to start without a key when API keys are configured', { timeout: 120_000 }, async () => {
    const transport = spawn({ API_KEYS: apiKeys });
    let stderr = '';
    transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    await expect(newClient().connect(transport)).rejects.toThrow();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(stderr).toContain('[UNAUTHENTICATED]');
  });
});
