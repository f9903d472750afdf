import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Services } from '../../src/app.js';
import { startServer, type RunningServer } from '../../src/server.js';
import { EXPECTED_TOOLS } from '../support/mcp.js';
import { type PythonCall, type PythonOutcome, pythonMcp, runPythonClient } from '../support/python-mcp.js';
import { REPO } from '../support/processes.js';
import { cleanNamespace, testServices, uniqueNamespace } from '../support/services.js';
import { TEST_NEO4J_ENV } from '../support/test-neo4j.js';

const KEY = 'mcp-python-rw-0123456789abcdef';
const BIN = (JSON.parse(readFileSync(path.join(REPO, 'package.json'), 'utf8')) as { bin: Record<string, string> }).bin['mnemograph-mcp']!;
/** The 2025 revisions a 2025-era client may settle on with this server. */
const ERA_2025 = /^2025-/;

/**
 * A 2025-era client that is not ours: the official Python SDK (1.x) over both transports — the
 * `initialize` handshake, the tools, a write and a read in one chain, the error shape.
 */
describe('MCP with the official Python SDK (a 2025-era client), over streamable HTTP and stdio', () => {
  let services: Services;
  let server: RunningServer;
  let python: string;
  const ns = uniqueNamespace('mcp-py');
  const elsewhere = uniqueNamespace('mcp-py-other');
  const apiKeys = JSON.stringify([{ key: KEY, name: 'python-agent', namespaces: [ns] }]);

  const calls = (fact: string, question: string): PythonCall[] => [
    { tool: 'remember', arguments: { content: fact } },
    { tool: 'recall', arguments: { query: question, max_tokens: 300 } },
    { tool: 'search', arguments: { query: 'anything', namespace: elsewhere } },
    { tool: 'get_entity', arguments: { name: 'Nobody Known Here' } },
  ];
  const expectServed = (out: PythonOutcome, needle: string) => {
    expect(out.protocolVersion).toMatch(ERA_2025);
    expect(out.serverName).toBe('mnemograph');
    expect(out.instructions).toMatch(/search.*timeline.*get_memories/s);
    expect(out.tools).toEqual(EXPECTED_TOOLS);
    const [remembered, recalled, denied, missing] = out.results;
    expect(remembered).toMatchObject({ isError: false, blocks: 1, json: { dedup: 'STORED_NEW' } });
    expect(recalled!.isError).toBe(false);
    expect(recalled!.text).toMatch(/^<memory>/);
    expect(recalled!.text).toContain(needle);
    expect(services.embedder.countTokens(recalled!.text)).toBeLessThanOrEqual(300);
    expect(denied).toMatchObject({ isError: true, json: { error: { code: 'FORBIDDEN' } } });
    expect(missing).toMatchObject({ isError: true, json: { error: { code: 'NOT_FOUND' } } });
  };

  beforeAll(async () => {
    python = await pythonMcp();
    services = testServices({ DEFAULT_NAMESPACE: ns, API_KEYS: apiKeys });
    await services.embedder.load();
    server = await startServer(services, { host: '127.0.0.1', port: 0 });
  }, 300_000);
  afterAll(async () => {
    await cleanNamespace(services, ns);
    await server?.close();
    await services?.executor.close();
  });

  it('over streamable HTTP at /mcp', { timeout: 300_000 }, async () => {
    const out = await runPythonClient(
      python,
      { transport: 'http', url: server.url.replace(/\/graphql$/, '/mcp'), headers: { Authorization: `Bearer ${KEY}` } },
      calls('Ingrid Berg runs the Tromsø weather station for the Polar Institute.', 'Who runs the weather station in Tromsø?'),
    );
    expectServed(out, 'Ingrid Berg');
  });

  it('over stdio, spawning the `mnemograph-mcp` bin', { timeout: 400_000 }, async () => {
    const out = await runPythonClient(
      python,
      {
        transport: 'stdio',
        command: path.join(REPO, BIN),
        cwd: tmpdir(),
        env: {
          PATH: process.env.PATH ?? '',
          ...TEST_NEO4J_ENV,
          DEFAULT_NAMESPACE: ns,
          WORKER_ENABLED: 'false',
          LOG_LEVEL: 'warn',
          API_KEYS: apiKeys,
          MNEMOGRAPH_API_KEY: KEY,
          ...(process.env.EMBEDDING_MODEL_DIR ? { EMBEDDING_MODEL_DIR: process.env.EMBEDDING_MODEL_DIR } : {}),
        },
      },
      calls('Kofi Mensah moved the ledger service to CockroachDB in Accra.', 'Which database does the ledger service use?'),
    );
    expectServed(out, 'CockroachDB');
  });
});
