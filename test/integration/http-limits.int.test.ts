import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanNamespace, uniqueNamespace } from '../support/services.js';
import { startTestHttpServer, type TestHttpServer } from '../support/http.js';

const MAX_COST = 500;
const MAX_BODY_BYTES = 4096;
const KEY = 'http-limits-key-0123456789';

const COUNT = `MATCH (m:Memory {namespace: $namespace}) RETURN count(m) AS memories`;

/** A selection nested `levels` fields below `memory`, walking memory → entities → memories. */
function nested(levels: number): string {
  let selection = 'id';
  for (let i = levels - 1; i >= 0; i--) selection = i % 2 === 0 ? `entities { ${selection} }` : `memories { ${selection} }`;
  return selection;
}

describe('limits at the HTTP edge, enforced before execution', () => {
  let http: TestHttpServer;
  const namespace = uniqueNamespace('http-limits');
  const memoriesIn = async () => (await http.services.executor.read<{ memories: number }>('test.count', COUNT, { namespace }))[0]!.memories;
  const remember = (selection: string) => ({
    query: `mutation Remember($input: RememberInput!) { remember(input: $input) { memory { ${selection} } } }`,
    variables: { input: { content: 'Ada chose Neo4j for the memory graph', namespace } },
  });

  beforeAll(async () => {
    http = await startTestHttpServer({
      MAX_QUERY_COST: String(MAX_COST),
      MAX_REQUEST_BYTES: String(MAX_BODY_BYTES),
      MAX_QUERY_TOKENS: '300',
      MAX_QUERY_DIRECTIVES: '5',
    });
  });
  afterAll(async () => {
    await cleanNamespace(http.services, namespace);
    await http?.close();
  });

  it('refuses a query deeper than MAX_QUERY_DEPTH with LIMIT_EXCEEDED, and nothing is written', async () => {
    const maxDepth = http.services.config.MAX_QUERY_DEPTH;
    // remember › memory › (maxDepth − 2 levels) › id: one field deeper than allowed.
    const { status, body } = await http.post(remember(nested(maxDepth - 2)));
    expect(status).toBe(400);
    expect(body.data).toBeUndefined();
    expect(body.errors).toHaveLength(1);
    expect(body.errors[0].extensions.code).toBe('LIMIT_EXCEEDED');
    expect(body.errors[0].message).toBe(`query depth exceeds the maximum of ${maxDepth} (MAX_QUERY_DEPTH)`);
    expect(await memoriesIn()).toBe(0);
  });

  it('refuses a query costing more than MAX_QUERY_COST with its cost and the maximum, and nothing is written', async () => {
    const { status, body } = await http.post(remember('entities { memories(first: 100) { content } }'));
    expect(body.errors?.[0]?.extensions?.details?.cost).toBeGreaterThan(MAX_COST);
    expect(status).toBe(400);
    expect(body.data).toBeUndefined();
    const [error] = body.errors;
    expect(error.extensions.code).toBe('LIMIT_EXCEEDED');
    expect(error.message).toMatch(new RegExp(`^query cost (\\d+) exceeds the maximum of ${MAX_COST} \\(MAX_QUERY_COST\\)$`));
    expect(error.extensions.details.maxCost).toBe(MAX_COST);
    expect(error.extensions.details.cost).toBeGreaterThan(MAX_COST);
    expect(await memoriesIn()).toBe(0);
  });

  it('counts list sizes given through variables, and lets an affordable query run', async () => {
    // 200 for recall, then 4 per item: 600 for 100 items, 400 for 50.
    const query = 'query Page($n: Int) { recall(query: "neo4j", namespace: "x", limit: $n) { items { memory { content importance } } } }';
    const expensive = await http.post({ query, variables: { n: 100 } });
    expect(expensive.body.errors[0].extensions.code).toBe('LIMIT_EXCEEDED');
    const cheap = await http.post({ query, variables: { n: 50 } });
    expect(cheap.status).toBe(200);
    expect(cheap.body.errors).toBeUndefined();
  });

  it('answers a fragment bomb (2^30 spreads when expanded) at once with LIMIT_EXCEEDED', async () => {
    let fragments = 'fragment F0 on Memory { id content entities { name } }\n';
    for (let i = 1; i <= 30; i++) fragments += `fragment F${i} on Memory { ...F${i - 1} ...F${i - 1} }\n`;
    const started = performance.now();
    const { status, body } = await http.post({ query: `query Bomb { memory(id: "m") { ...F30 } }\n${fragments}` });
    // The old depth rule re-walked every spread: minutes for this document. A generous bound.
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(status).toBe(400);
    expect(body.errors.map((e: any) => e.extensions.code)).toEqual(['LIMIT_EXCEEDED']);
  });

  it('prices every alias of recall: two fit, a third is refused before anything runs', async () => {
    const recall = (alias: string) => `${alias}: recall(query: "neo4j", namespace: "${namespace}", limit: 1) { items { score } }`;
    const two = await http.post({ query: `{ ${recall('a')} ${recall('b')} }` });
    expect(two.body.errors).toBeUndefined();
    const three = await http.post({ query: `{ ${recall('a')} ${recall('b')} ${recall('c')} }` });
    expect(three.status).toBe(400);
    expect(three.body.errors[0].extensions).toMatchObject({ code: 'LIMIT_EXCEEDED', details: { maxCost: MAX_COST } });
    expect(three.body.data).toBeUndefined();
  });

  it('refuses more aliases than MAX_QUERY_ALIASES, even on cheap fields', async () => {
    const max = http.services.config.MAX_QUERY_ALIASES;
    const query = `{ ${Array.from({ length: max + 1 }, (_, i) => `a${i}: health { ok }`).join(' ')} }`;
    const { status, body } = await http.post({ query });
    expect(status).toBe(400);
    expect(body.errors[0]).toMatchObject({
      message: `query uses more than ${max} aliases (MAX_QUERY_ALIASES)`,
      extensions: { code: 'LIMIT_EXCEEDED' },
    });
  });

  it('refuses more directives than MAX_QUERY_DIRECTIVES', async () => {
    const max = http.services.config.MAX_QUERY_DIRECTIVES;
    const query = `{ __typename ${'@include(if: true) '.repeat(max + 1)}}`;
    const { body } = await http.post({ query });
    expect(body.errors.map((e: any) => e.extensions.code)).toContain('LIMIT_EXCEEDED');
    expect(body.errors.map((e: any) => e.message)).toContain(`query uses more than ${max} directives (MAX_QUERY_DIRECTIVES)`);
  });

  it('refuses a document of more than MAX_QUERY_TOKENS tokens before parsing it, over POST and GET', async () => {
    const max = http.services.config.MAX_QUERY_TOKENS;
    const query = `{ ${'__typename '.repeat(max)} }`;
    const post = await http.post({ query });
    expect(post.status).toBe(400);
    expect(post.body.errors).toEqual([
      {
        message: `query has more than ${max} tokens (MAX_QUERY_TOKENS)`,
        extensions: { code: 'LIMIT_EXCEEDED', details: { maxTokens: max } },
      },
    ]);
    const get = await fetch(`${http.server.url}?query=${encodeURIComponent(query)}`, { headers: { 'apollo-require-preflight': 'true' } });
    expect(get.status).toBe(400);
    expect(((await get.json()) as any).errors[0].extensions.code).toBe('LIMIT_EXCEEDED');
  });

  it('answers a body over MAX_REQUEST_BYTES with HTTP 413 and LIMIT_EXCEEDED in GraphQL shape', async () => {
    const content = 'x'.repeat(MAX_BODY_BYTES * 2);
    const { status, body } = await http.post({
      query: 'mutation R($c: String!) { remember(input: {content: $c}) { memory { id } } }',
      variables: { c: content },
    });
    expect(status).toBe(413);
    expect(body).toEqual({
      errors: [
        {
          message: `request body exceeds the maximum of ${MAX_BODY_BYTES} bytes (MAX_REQUEST_BYTES)`,
          extensions: { code: 'LIMIT_EXCEEDED', details: { maxBytes: MAX_BODY_BYTES, bytes: expect.any(Number) } },
        },
      ],
    });
  });

  it('answers malformed JSON with HTTP 400 in GraphQL shape', async () => {
    const { status, body } = await http.post('{"query": ');
    expect(status).toBe(400);
    expect(body.errors[0].extensions.code).toBe('BAD_REQUEST');
  });
});

describe('authentication at the HTTP edge', () => {
  let http: TestHttpServer;

  beforeAll(async () => {
    http = await startTestHttpServer({ API_KEYS: JSON.stringify([{ key: KEY, name: 'limits-test', namespaces: ['*'] }]) });
  });
  afterAll(async () => {
    await http?.close();
  });

  it.each([
    ['no key', {}],
    ['an unknown bearer key', { authorization: 'Bearer not-the-right-key-at-all' }],
    ['an unknown x-api-key', { 'x-api-key': 'not-the-right-key-at-all' }],
    ['a malformed authorization header', { authorization: KEY }],
  ])('answers %s with HTTP 401 and UNAUTHENTICATED', async (_, headers) => {
    const { status, body } = await http.post({ query: '{ health { ok } }' }, headers);
    expect(status).toBe(401);
    expect(body.data).toBeUndefined();
    expect(body.errors).toHaveLength(1);
    expect(body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
    expect(body.errors[0].message).not.toMatch(/Context creation failed/);
  });

  it('lets a known key through, as a bearer token or as x-api-key', async () => {
    for (const headers of [{ authorization: `Bearer ${KEY}` }, { 'x-api-key': KEY }] as Record<string, string>[]) {
      const { status, body } = await http.post({ query: '{ health { ok } }' }, headers);
      expect(status).toBe(200);
      expect(body.data).toEqual({ health: { ok: true } });
    }
  });

  it('still serves the IDE page (it holds no data) and puts an Authorization template in its headers', async () => {
    const page = await fetch(`${http.origin}/graphql`, { headers: { accept: 'text/html' } });
    expect(page.status).toBe(200);
    const boot = await (await fetch(`${http.origin}/ide/assets/boot.js`)).text();
    expect(boot).toContain('Bearer <your API key>');
  });
});
