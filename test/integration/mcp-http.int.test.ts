import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Services } from '../../src/app.js';
import { startServer, type RunningServer } from '../../src/server.js';
import { callTool, eraOf, EXPECTED_TOOLS, MCP_ERAS, newClient } from '../support/mcp.js';
import { cleanNamespace, testServices, uniqueNamespace } from '../support/services.js';

const KEY = 'mcp-http-rw-0123456789abcdef';
const KEY_RO = 'mcp-http-ro-0123456789abcdef';

describe.each(MCP_ERAS)('MCP over streamable HTTP at /mcp, with the SDK client speaking MCP %s', (era) => {
  let services: Services;
  let server: RunningServer;
  let url: URL;
  const ns = uniqueNamespace(`mcp-http-${era.slice(0, 4)}`);
  const elsewhere = uniqueNamespace('mcp-http-other');

  const connect = async (key?: string) => {
    const client = newClient(era);
    const headers: Record<string, string> = key ? { Authorization: `Bearer ${key}` } : {};
    await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers } }));
    expect(eraOf(client)).toBe(era);
    return client;
  };

  beforeAll(async () => {
    services = testServices({
      DEFAULT_NAMESPACE: ns,
      API_KEYS: JSON.stringify([
        { key: KEY, name: 'agent', namespaces: [ns] },
        { key: KEY_RO, name: 'viewer', namespaces: [ns], readOnly: true },
      ]),
    });
    await services.embedder.load();
    server = await startServer(services, { host: '127.0.0.1', port: 0 });
    url = new URL(server.url.replace(/\/graphql$/, '/mcp'));
  });
  afterAll(async () => {
    await cleanNamespace(services, ns);
    await server.close();
    await services.executor.close();
  });

  it('lists the tools and states the progressive-disclosure workflow', async () => {
    const client = await connect(KEY);
    const tools = (await client.listTools()).tools;
    expect(tools.map((t) => t.name).sort()).toEqual(EXPECTED_TOOLS);
    const recall = tools.find((t) => t.name === 'recall')!;
    expect(Object.keys(recall.inputSchema.properties ?? {})).toEqual(expect.arrayContaining(['query', 'namespace', 'max_tokens']));
    expect(client.getInstructions()).toMatch(/search.*timeline.*get_memories/s);
    await client.close();
  });

  it('remember → recall → get_entity, with structured writes in between', async () => {
    const client = await connect(KEY);
    const remembered = await callTool(client, 'remember', {
      content: 'Alice Martin joined Acme Corp in Oslo as head of payments in March.',
    });
    expect(remembered.isError).toBe(false);
    expect(remembered.json.dedup).toBe('STORED_NEW');

    const entities = await callTool(client, 'create_entities', {
      entities: [
        { name: 'Alice Martin', type: 'person' },
        { name: 'Acme Corp', type: 'organization' },
        { name: 'Bad', type: 'person', description: ' ' },
      ],
    });
    expect(entities.json.entities.slice(0, 2)).toMatchObject([
      { name: 'Alice Martin', type: 'person' },
      { name: 'Acme Corp', type: 'organization' },
    ]);
    const relations = await callTool(client, 'create_relations', {
      relations: [
        { source: 'Alice Martin', type: 'works_at', target: 'Acme Corp' },
        { source: 'Alice Martin', type: 'knows', target: 'Nobody' },
      ],
    });
    expect(relations.json.relations[0]).toMatchObject({ type: 'works_at', mentions: 1 });
    expect(relations.json.relations[0].id).toMatch(/^[0-9a-f-]{36}$/);
    expect(relations.json.relations[1]).toMatchObject({ error: { code: 'NOT_FOUND' } });
    const observed = await callTool(client, 'add_observations', {
      observations: [{ entity: 'alice martin', aspect: 'preferences', content: 'prefers green tea over coffee' }],
    });
    expect(observed.json.observations[0]).toMatchObject({ outcome: 'created', entity: 'Alice Martin' });

    const recalled = await callTool(client, 'recall', { query: 'Where does Alice work?' });
    expect(recalled.isError).toBe(false);
    expect(recalled.text).toMatch(/^<memory>/);
    expect(recalled.text).toContain('Acme Corp');
    const ids = JSON.parse(recalled.text.slice(recalled.text.lastIndexOf('\n{') + 1)).memories.map((m: { id: string }) => m.id);
    expect(ids).toContain(remembered.json.id);

    const entity = await callTool(client, 'get_entity', { name: 'ALICE MARTIN' });
    expect(entity.json).toMatchObject({ name: 'Alice Martin', type: 'person' });
    // The write path may derive facts of its own from the memories; the asserted one is there.
    expect(entity.json.facts).toContainEqual(
      expect.objectContaining({ aspect: 'preferences', content: 'prefers green tea over coffee', kind: 'attribute' }),
    );
    expect(entity.json.relations).toContainEqual({ type: 'works_at', direction: 'OUT', other: 'Acme Corp', mentions: 1 });
    const found = await callTool(client, 'search_entities', { query: 'acme' });
    expect(found.json.entities.map((e: { name: string }) => e.name)).toEqual(['Acme Corp']);

    const full = await callTool(client, 'get_memories', { ids: [remembered.json.id, '00000000-0000-0000-0000-000000000000'] });
    expect(full.json.memories).toMatchObject([
      { id: remembered.json.id, content: expect.stringContaining('head of payments') },
      { error: 'NOT_FOUND' },
    ]);
    const forgotten = await callTool(client, 'forget', { id: remembered.json.id, reason: 'test' });
    expect(forgotten.json.forgotten_at).toBeTruthy();
    const after = await callTool(client, 'search', { query: 'head of payments Oslo' });
    expect(after.json.hits.map((h: { id: string }) => h.id)).not.toContain(remembered.json.id);
    await client.close();
  });

  it('bounds every answer by max_tokens and says how much was left out', async () => {
    // Thirty different items: near-identical ones of one batch would be near-duplicates, collapsed into one hit.
    const checklist = [
      'snapshot the primary database volume before the first migration runs',
      'announce the deployment window in the status page a day ahead',
      "run the schema migrations against last night's staging restore first",
      'confirm the rollback script restores the dropped columns with their data',
      'freeze merges to the release branch two hours before the deployment',
      'check that the connection pool limits survive the extra migration workers',
      'page the on-call database administrator before locking the orders table',
      'verify feature flags for the new checkout default to off',
      'warm the CDN cache for the rebuilt static assets',
      'compare row counts of the invoices table before and after the backfill',
      'rehearse the failover to the replica in eu-west-1',
      'rotate the deploy key used by the CI runner',
      'pause the nightly ETL so it does not read half-migrated tables',
      'watch replication lag on the read replicas while indexes are built',
      'keep the previous container image tagged so a rollback pulls it instantly',
      'tell customer support which error messages users may briefly see',
      'run the smoke tests for login, search and payment after the deploy',
      'drain the background job queue before switching the worker version',
      "record the migration's duration in the changelog for next quarter's estimate",
      'ensure long-running analytics queries are killed before the ALTER TABLE',
      "confirm the disk has twice the table's size free for the rebuild",
      'disable the cron job that archives old sessions during the window',
      'double-check the migration is idempotent if it is interrupted halfway',
      'review the Grafana alert thresholds so the deploy does not wake everyone',
      'have the product owner sign the go/no-go sheet',
      'update the runbook link in the incident channel topic',
      'verify the new index is used by the slow report query with EXPLAIN',
      'keep a read-only maintenance page ready behind the load balancer',
      'delete the temporary backfill tables once the numbers match',
      'write the post-deployment note with what went wrong and what did not',
    ];
    const inputs = checklist.map((item, i) => ({
      content: `Bound test note ${i}: the deployment checklist item number ${i} says to ${item}.`,
      namespace: ns,
      sessionId: 'bounds',
    }));
    const stored = await services.remember.rememberBatch(inputs);
    const long = await services.remember.remember({
      content: `Bound test long memo. ${'The migration plan covers every service and its rollback path in detail. '.repeat(120)}`,
      namespace: ns,
    });
    const client = await connect(KEY);
    const count = (text: string) => services.embedder.countTokens(text);

    const search = await callTool(client, 'search', { query: 'deployment checklist database migrations', limit: 30, max_tokens: 150 });
    expect(count(search.text)).toBeLessThanOrEqual(150);
    expect(search.json.omitted).toBeGreaterThan(0);
    expect(search.json.hits.length + search.json.omitted).toBe(30);

    const recall = await callTool(client, 'recall', { query: 'deployment checklist', limit: 30, max_tokens: 200 });
    expect(count(recall.text)).toBeLessThanOrEqual(200);
    const memories = await callTool(client, 'get_memories', { ids: [long.memory.id, stored[0]!.result!.memory.id], max_tokens: 300 });
    expect(count(memories.text)).toBeLessThanOrEqual(300);
    expect(memories.json.memories.map((m: { id: string }) => m.id)).toEqual([long.memory.id, stored[0]!.result!.memory.id]);
    expect(memories.json.memories[0].content).toMatch(/^Bound test long memo\..*…$/);
    expect(memories.json.memories[1].content).toBe(inputs[0]!.content);
    const timeline = await callTool(client, 'timeline', { anchor: stored[15]!.result!.memory.id, before: 10, after: 10, max_tokens: 300 });
    expect(timeline.isError, timeline.text).toBe(false);
    expect(count(timeline.text)).toBeLessThanOrEqual(300);
    expect(timeline.json.memories.length, timeline.text).toBeGreaterThan(1);
    expect(timeline.json.memories[0]).toMatchObject({ position: 'anchor', id: stored[15]!.result!.memory.id });
    expect(timeline.json.omitted).toBeGreaterThan(0);

    const tooSmall = await callTool(client, 'search', { query: 'x', max_tokens: 5 });
    expect(tooSmall.isError).toBe(true);
    await client.close();
  });

  it('applies the API keys: no key is refused, a foreign namespace is FORBIDDEN, a read-only key cannot write', async () => {
    await expect(connect()).rejects.toThrow(/401|API key/);
    await expect(connect('not-a-key-0123456789abcdef')).rejects.toThrow(/401|not recognised/);

    const client = await connect(KEY);
    for (const [tool, args] of [
      ['recall', { query: 'anything', namespace: elsewhere }],
      ['remember', { content: 'sneaky write', namespace: elsewhere }],
      ['get_entity', { name: 'Alice Martin', namespace: elsewhere }],
      ['create_entities', { entities: [{ name: 'Mallory' }], namespace: elsewhere }],
    ] as const) {
      const denied = await callTool(client, tool, args);
      expect(denied.isError, tool).toBe(true);
      expect(denied.json.error.code, tool).toBe('FORBIDDEN');
    }
    const missing = await callTool(client, 'get_entity', { name: 'Nobody Known' });
    expect(missing).toMatchObject({ isError: true, json: { error: { code: 'NOT_FOUND' } } });
    await client.close();

    const viewer = await connect(KEY_RO);
    const write = await callTool(viewer, 'remember', { content: 'a read-only key tries to write' });
    expect(write).toMatchObject({ isError: true, json: { error: { code: 'FORBIDDEN' } } });
    const read = await callTool(viewer, 'search', { query: 'deployment checklist' });
    expect(read.isError).toBe(false);
    await viewer.close();
  });
});
