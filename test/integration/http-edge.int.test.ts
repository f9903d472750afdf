import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHttpServer, type TestHttpServer } from '../support/http.js';
import { cleanNamespace, uniqueNamespace } from '../support/services.js';
import { faultingExecutor } from '../support/faulting-executor.js';

const KEY_A = 'edge-test-key-a-0123456789';
const KEY_B = 'edge-test-key-b-0123456789';
const HEALTH = { query: '{ health { ok } }' };

/** A POST whose body is held back: the request occupies its key's slot until `finish` is called. */
function heldRequest(url: string, headers: Record<string, string>) {
  const body = JSON.stringify(HEALTH);
  const req = request(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'content-length': String(body.length), ...headers },
  });
  const response = new Promise<number>((resolve, reject) => {
    req.on('response', (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
  });
  req.write(body.slice(0, 5));
  return {
    finish: () => {
      req.end(body.slice(5));
      return response;
    },
  };
}

/** Status and body of a GET with a chosen Host header (fetch forbids setting Host). */
function getWithHost(origin: string, path: string, host: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(`${origin}${path}`, { headers: { host } }, (res) => {
      let body = '';
      res.on('data', (chunk) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('per-key rate and concurrency limits', () => {
  let http: TestHttpServer;
  const auth = (key: string) => ({ authorization: `Bearer ${key}` });

  beforeAll(async () => {
    http = await startTestHttpServer({
      API_KEYS: JSON.stringify([
        { key: KEY_A, name: 'agent-a', namespaces: ['*'] },
        { key: KEY_B, name: 'agent-b', namespaces: ['*'] },
      ]),
      RATE_LIMIT_PER_MINUTE: '3',
      MAX_CONCURRENT_REQUESTS_PER_KEY: '1',
    });
  });
  afterAll(async () => {
    await http?.close();
  });

  it('answers the request past RATE_LIMIT_PER_MINUTE with 429, RATE_LIMITED and Retry-After; other keys are unaffected', async () => {
    for (let i = 0; i < 3; i++) expect((await http.post(HEALTH, auth(KEY_A))).status).toBe(200);
    const refused = await http.post(HEALTH, auth(KEY_A));
    expect(refused.status).toBe(429);
    expect(refused.body.errors[0].extensions.code).toBe('RATE_LIMITED');
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(refused.body.errors[0].extensions.details.retryAfterSeconds).toBe(retryAfter);
    expect((await http.post(HEALTH, auth(KEY_B))).status).toBe(200);
  });

  it('refuses a second request in flight for the same key with 429 LIMIT_EXCEEDED, and frees the slot afterwards', async () => {
    // Key B has used 1 of its 3 requests per minute; this test uses the other 2... and one refusal.
    const held = heldRequest(http.server.url, auth(KEY_B));
    await new Promise((resolve) => setTimeout(resolve, 100));
    const second = await http.post(HEALTH, auth(KEY_B));
    expect(second.status).toBe(429);
    expect(second.headers.get('retry-after')).toBe('1');
    expect(second.body.errors[0].extensions.code).toBe('LIMIT_EXCEEDED');
    expect(second.body.errors[0].message).toMatch(/MAX_CONCURRENT_REQUESTS_PER_KEY/);
    expect(await held.finish()).toBe(200);
  });

  it('checks the key before any limit: an unknown key is 401, not 429', async () => {
    const { status, body } = await http.post(HEALTH, auth('not-a-key-of-this-server'));
    expect(status).toBe(401);
    expect(body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
  });
});

describe('open mode (no API keys): Host check against DNS rebinding', () => {
  let http: TestHttpServer;

  beforeAll(async () => {
    http = await startTestHttpServer({ ALLOWED_HOSTS: 'mnemograph.internal' });
  });
  afterAll(async () => {
    await http?.close();
  });

  it.each(['localhost', '127.0.0.1', '[::1]', 'LOCALHOST', 'mnemograph.internal'])('serves Host %s', async (name) => {
    const port = new URL(http.origin).port;
    const { status } = await getWithHost(http.origin, '/health/live', `${name}:${port}`);
    expect(status).toBe(200);
  });

  it.each([
    'attacker.example',
    'localhost.attacker.example',
    '127.0.0.1.nip.io',
    'user@localhost',
  ])('refuses Host %j with 403 FORBIDDEN', async (host) => {
    const { status, body } = await getWithHost(http.origin, '/graphql?query=%7Bhealth%7Bok%7D%7D', host);
    expect(status).toBe(403);
    expect(JSON.parse(body).errors[0].extensions.code).toBe('FORBIDDEN');
  });
});

describe('internal errors', () => {
  let http: TestHttpServer;
  const namespace = uniqueNamespace('edge-internal');
  const SECRET_DETAIL = 'Regular expression too large at /srv/mnemograph/node_modules/secret-path';

  beforeAll(async () => {
    http = await startTestHttpServer(
      {},
      {
        wrapExecutor: faultingExecutor('remember', {
          beforeCommit: async () => {
            throw new Error(SECRET_DETAIL);
          },
        }),
      },
    );
  });
  afterAll(async () => {
    await cleanNamespace(http.services, namespace);
    await http?.close();
  });

  it('answers INTERNAL with a generic message, logs the detail with the request id, and writes nothing', async () => {
    const { body, headers } = await http.post(
      {
        query: 'mutation R($i: RememberInput!) { remember(input: $i) { memory { id } } }',
        variables: { i: { content: 'Ada likes graphs', namespace } },
      },
      { 'x-request-id': 'edge-internal-req-1' },
    );
    expect(headers.get('x-request-id')).toBe('edge-internal-req-1');
    expect(body.errors).toHaveLength(1);
    expect(body.errors[0].extensions).toEqual({ code: 'INTERNAL' });
    expect(JSON.stringify(body)).not.toContain('Regular expression');
    expect(JSON.stringify(body)).not.toContain('stacktrace');
    const logged = http.logLines.find((line) => line.msg === 'unexpected error in a GraphQL operation');
    expect(logged?.requestId).toBe('edge-internal-req-1');
    expect(JSON.stringify(logged)).toContain(SECRET_DETAIL);
    const count = await http.services.executor.read<{ n: number }>(
      'test.count',
      'MATCH (m:Memory {namespace: $namespace}) RETURN count(m) AS n',
      { namespace },
    );
    expect(count[0]!.n).toBe(0);
  });

  it('answers a batch item that failed internally with INTERNAL and a generic message', async () => {
    const { body } = await http.post({
      query: 'mutation B($i: [RememberInput!]!) { rememberBatch(inputs: $i) { index error { code message } } }',
      variables: { i: [{ content: 'Grace wrote a compiler', namespace }] },
    });
    const item = body.data?.rememberBatch?.[0];
    const error = item?.error ?? body.errors?.[0];
    expect(JSON.stringify(body)).not.toContain('Regular expression');
    expect(error.code ?? error.extensions.code).toBe('INTERNAL');
  });
});

describe('provenance: the authenticated key is the actor, whatever `who` claims', () => {
  let http: TestHttpServer;
  const namespace = uniqueNamespace('edge-actor');
  const KEY = 'edge-actor-key-0123456789';

  beforeAll(async () => {
    http = await startTestHttpServer({ API_KEYS: JSON.stringify([{ key: KEY, name: 'agent-actor', namespaces: [namespace] }]) });
  });
  afterAll(async () => {
    await cleanNamespace(http.services, namespace);
    await http?.close();
  });

  it('records the key name as Memory.actor and as the created event’s actor when who impersonates the pipeline', async () => {
    const selection = 'memory { who actor history { event actor } }';
    const headers = { authorization: `Bearer ${KEY}` };
    const single = await http.post(
      {
        query: `mutation R($i: RememberInput!) { remember(input: $i) { ${selection} } }`,
        variables: { i: { content: 'Ada moved the billing job to Tuesdays', namespace, who: 'pipeline-v2' } },
      },
      headers,
    );
    expect(single.body.errors).toBeUndefined();
    expect(single.body.data.remember.memory).toMatchObject({ who: 'pipeline-v2', actor: 'agent-actor' });
    expect(single.body.data.remember.memory.history).toContainEqual({ event: 'created', actor: 'agent-actor' });

    const batch = await http.post(
      {
        query: `mutation B($i: [RememberInput!]!) { rememberBatch(inputs: $i) { result { ${selection} } } }`,
        variables: { i: [{ content: 'Grace reviews the compiler on Fridays', namespace, who: 'pipeline-v2' }] },
      },
      headers,
    );
    expect(batch.body.data.rememberBatch[0].result.memory.actor).toBe('agent-actor');
    expect(batch.body.data.rememberBatch[0].result.memory.history).toContainEqual({ event: 'created', actor: 'agent-actor' });
  });
});
