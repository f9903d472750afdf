import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BOOKMARK_HEADER, decodeBookmarkToken, encodeBookmarkToken } from '../../src/consistency/index.js';
import { callTool, eraOf, MCP_ERAS, newClient } from '../support/mcp.js';
import { startTestHttpServer, type TestHttpServer } from '../support/http.js';
import { cleanNamespace, uniqueNamespace } from '../support/services.js';

const KEY = 'mcp-edge-rw-0123456789abcdef';
const OTHER = 'mcp-edge-other-0123456789abcdef';
const SHARED = 'mcp-edge-shared-0123456789abcdef';
const META = 'mnemograph/bookmark';
const RATE = 4;

/** A raw JSON-RPC POST to /mcp, for what the SDK client would never send. */
async function rawPost(http: TestHttpServer, body: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${http.origin}/mcp`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      authorization: `Bearer ${KEY}`,
      ...headers,
    },
    body,
  });
  return { status: response.status, headers: response.headers, body: (await response.json()) as any };
}

const toolCall = (id: number, name: string, args: Record<string, unknown>) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name, arguments: args },
});

describe.each(MCP_ERAS)('/mcp at the HTTP edge, with clients speaking MCP %s: admission, limits, logs, metrics and bookmarks', (era) => {
  let http: TestHttpServer;
  let limited: TestHttpServer;
  const ns = uniqueNamespace(`mcp-edge-${era.slice(0, 4)}`);
  const keys = JSON.stringify([
    { key: KEY, name: 'edge-agent', namespaces: [ns] },
    { key: OTHER, name: 'edge-other', namespaces: [ns] },
    { key: SHARED, name: 'edge-shared', namespaces: [ns] },
  ]);

  const connect = async (server: TestHttpServer, key: string, extra: Record<string, string> = {}, seen?: Headers[]) => {
    const client = newClient(era);
    const spy = async (url: string | URL, init?: RequestInit) => {
      const response = await fetch(url, init);
      seen?.push(response.headers);
      return response;
    };
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${server.origin}/mcp`), {
        requestInit: { headers: { Authorization: `Bearer ${key}`, ...extra } },
        fetch: spy,
      }),
    );
    expect(eraOf(client)).toBe(era);
    return client;
  };

  beforeAll(async () => {
    [http, limited] = await Promise.all([
      startTestHttpServer({ API_KEYS: keys, DEFAULT_NAMESPACE: ns }),
      startTestHttpServer({ API_KEYS: keys, DEFAULT_NAMESPACE: ns, RATE_LIMIT_PER_MINUTE: String(RATE) }),
    ]);
  });
  afterAll(async () => {
    await cleanNamespace(http.services, ns);
    await Promise.all([http?.close(), limited?.close()]);
  });

  it('a key over its rate limit gets HTTP 429 with RATE_LIMITED and Retry-After; another key is unaffected', async () => {
    const client = await connect(limited, KEY);
    let refusal: Error | undefined;
    let calls = 0;
    while (!refusal && calls < RATE + 2) {
      calls += 1;
      try {
        await callTool(client, 'search', { query: 'anything' });
      } catch (error) {
        refusal = error as Error;
      }
    }
    // Connecting spent the key's requests: two in the 2025 era (initialize, initialized), one in 2026-07-28 (server/discover).
    expect(calls).toBeLessThanOrEqual(era === '2025' ? RATE - 1 : RATE);
    // The SDK's SdkHttpError: the HTTP status, the JSON-RPC error in its message.
    expect((refusal as Error & { status?: number }).status).toBe(429);
    expect(refusal?.message).toContain('"code":"RATE_LIMITED"');
    await client.close().catch(() => undefined);

    const raw = await rawPost(limited, JSON.stringify(toolCall(1, 'search', { query: 'x' })));
    expect(raw.status).toBe(429);
    expect(Number(raw.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(raw.body).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32001, data: { code: 'RATE_LIMITED' } } });
    expect(limited.logLines).toContainEqual(expect.objectContaining({ msg: 'mcp request refused', code: 'RATE_LIMITED', status: 429 }));

    const other = await connect(limited, OTHER);
    expect((await callTool(other, 'search', { query: 'anything' })).isError).toBe(false);
    await other.close();
  });

  it('one rate per key across /graphql and /mcp: requests spent on one count on the other', async () => {
    for (let i = 0; i < RATE; i++) {
      const response = await fetch(`${limited.origin}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${SHARED}` },
        body: JSON.stringify({ query: '{ __typename }' }),
      });
      expect(response.status).toBe(200);
    }
    const mcp = await rawPost(limited, JSON.stringify(toolCall(1, 'search', { query: 'x' })), { authorization: `Bearer ${SHARED}` });
    expect(mcp.status).toBe(429);
    expect(mcp.body).toMatchObject({ error: { data: { code: 'RATE_LIMITED' } } });
  });

  it('logs one line per tool call (tool, outcome, code, duration, request id; no arguments or content) and times it', async () => {
    const client = await connect(http, KEY, { 'x-request-id': 'mcp-edge-log-1' });
    const secretish = 'The launch code word for the Orion project is periwinkle.';
    expect((await callTool(client, 'remember', { content: secretish, tags: ['orion'] })).isError).toBe(false);
    expect((await callTool(client, 'get_entity', { name: 'Nobody Of That Name' })).json.error.code).toBe('NOT_FOUND');
    await client.close();

    const lines = http.logLines.filter((line) => line.msg === 'mcp tool call');
    const remembered = lines.find((line) => line.tool === 'remember');
    expect(remembered).toMatchObject({
      requestId: 'mcp-edge-log-1',
      outcome: 'ok',
      durationMs: expect.any(Number),
      component: 'mcp',
      principal: 'edge-agent',
    });
    expect(Object.keys(remembered!).sort()).toEqual([
      'component',
      'durationMs',
      'hostname',
      'level',
      'msg',
      'outcome',
      'pid',
      'principal',
      'requestId',
      'time',
      'tool',
    ]);
    expect(lines).toContainEqual(
      expect.objectContaining({ requestId: 'mcp-edge-log-1', tool: 'get_entity', outcome: 'error', code: 'NOT_FOUND' }),
    );
    expect(JSON.stringify(http.logLines.filter((line) => line.component === 'mcp'))).not.toMatch(/periwinkle|Nobody Of That Name|orion/);

    const metrics = await (await fetch(`${http.origin}/metrics`)).text();
    expect(metrics).toMatch(/^mnemograph_mcp_tool_duration_seconds_count\{tool="remember",outcome="ok"\} 1$/m);
    expect(metrics).toMatch(/^mnemograph_mcp_tool_duration_seconds_count\{tool="get_entity",outcome="error"\} 1$/m);
  });

  it('returns the bookmark of a write in the header and in _meta; sent back, the next request reads in that chain', async () => {
    const seen: Headers[] = [];
    const writer = await connect(http, KEY, {}, seen);
    const remembered = await callTool(writer, 'remember', { content: 'The staging cluster moved to three boxes in Falkenstein.' });
    const token = remembered.meta?.[META] as string;
    expect(token).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeBookmarkToken(token)[0]).toMatch(/^FB:/);
    expect(seen.at(-1)!.get(BOOKMARK_HEADER)).toBe(token);
    await writer.close();

    const reader = await connect(http, KEY, { [BOOKMARK_HEADER]: token });
    const read = await callTool(reader, 'get_memories', { ids: [remembered.json.id] });
    expect(read.json.memories[0]).toMatchObject({ id: remembered.json.id, content: expect.stringContaining('Falkenstein') });
    expect(read.meta?.[META]).toEqual(expect.any(String));
    await reader.close();

    // The header really reaches the database sessions: a bookmark of no database is refused there.
    const foreign = await connect(http, KEY, { [BOOKMARK_HEADER]: encodeBookmarkToken(['FB:garbage']) });
    const refused = await callTool(foreign, 'get_memories', { ids: [remembered.json.id] });
    expect(refused).toMatchObject({ isError: true, json: { error: { code: 'BAD_USER_INPUT' } } });
    // As over GraphQL: the code and Neo4j's error class, never the bookmark or the engine's message.
    expect(refused.text).not.toMatch(/FB:|garbage/);
    await foreign.close();

    const malformed = await rawPost(http, JSON.stringify(toolCall(1, 'search', { query: 'x' })), { [BOOKMARK_HEADER]: 'not a token!' });
    expect(malformed.status).toBe(400);
    expect(malformed.body.error.data.code).toBe('BAD_USER_INPUT');
  });

  it('refuses batches and oversized bodies before any tool runs', async () => {
    const batch = await rawPost(
      http,
      JSON.stringify([toolCall(1, 'remember', { content: 'batched one' }), toolCall(2, 'remember', { content: 'batched two' })]),
    );
    expect(batch.status).toBe(400);
    expect(batch.body.error.data.code).toBe('LIMIT_EXCEEDED');
    const huge = await rawPost(
      http,
      JSON.stringify(toolCall(1, 'remember', { content: 'x'.repeat(http.services.config.MAX_REQUEST_BYTES + 10) })),
    );
    expect(huge.status).toBe(413);
    expect(huge.body.error.data.code).toBe('LIMIT_EXCEEDED');
    const notJson = await rawPost(http, '{"jsonrpc":');
    expect(notJson.status).toBe(400);
    expect(notJson.body.error.code).toBe(-32700);
    const stored = await http.services.executor.read<{ n: number }>(
      'test.count',
      `MATCH (m:Memory {namespace: $ns}) WHERE m.content STARTS WITH 'batched' RETURN count(m) AS n`,
      { ns },
    );
    expect(stored[0]!.n).toBe(0);
  });
});
