import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHttpServer, type TestHttpServer } from '../support/http.js';
import { cleanNamespace, uniqueNamespace } from '../support/services.js';

const NODES = 'MATCH (n) WHERE n.namespace = $namespace RETURN count(n) AS n';
const LONE_SURROGATE = 'half \uD800 a pair';
const CONTROL = 'bell\u0007nul\u0000esc\u001b';
const LUCENE = 'title:(+a -b) AND c~2 OR "d"^3 \\ / * ? [x TO y] {z}';
const CYPHER = "x' }) MATCH (n) DETACH DELETE n //";
const deepJson = (levels: number): unknown => (levels === 0 ? 1 : { a: deepJson(levels - 1) });

interface Case {
  name: string;
  query: string;
  variables?: (ns: string) => Record<string, unknown>;
}

const REMEMBER = 'mutation R($i: RememberInput!) { remember(input: $i) { memory { id } } }';
const BATCH = 'mutation B($i: [RememberInput!]!) { rememberBatch(inputs: $i) { index error { code } result { memory { id } } } }';

/** Bad inputs for every query and mutation; each must get a coded answer and change nothing. */
const CASES: Case[] = [
  { name: 'remember: content over MAX_CONTENT_CHARS', query: REMEMBER, variables: (ns) => ({ i: { content: 'x'.repeat(60_000), namespace: ns } }) },
  { name: 'remember: blank content', query: REMEMBER, variables: (ns) => ({ i: { content: ' \n\t ', namespace: ns } }) },
  { name: 'remember: metadata not an object', query: REMEMBER, variables: (ns) => ({ i: { content: 'ok', namespace: ns, metadata: [1, 2] } }) },
  { name: 'remember: huge metadata', query: REMEMBER, variables: (ns) => ({ i: { content: 'ok', namespace: ns, metadata: { blob: 'y'.repeat(40_000) } } }) },
  { name: 'remember: deep metadata', query: REMEMBER, variables: (ns) => ({ i: { content: 'ok', namespace: ns, metadata: deepJson(200) } }) },
  { name: 'remember: invalid namespace', query: REMEMBER, variables: () => ({ i: { content: 'ok', namespace: "bad ns' OR 1=1" } }) },
  { name: 'remember: wrong type for content', query: REMEMBER, variables: (ns) => ({ i: { content: 42, namespace: ns } }) },
  { name: 'remember: unknown memory type', query: REMEMBER, variables: (ns) => ({ i: { content: 'ok', namespace: ns, type: 'villain' } }) },
  { name: 'remember: bad occurredAt', query: REMEMBER, variables: (ns) => ({ i: { content: 'ok', namespace: ns, occurredAt: 'yesterday' } }) },
  { name: 'remember: huge tag list', query: REMEMBER, variables: (ns) => ({ i: { content: 'ok', namespace: ns, tags: Array.from({ length: 5_000 }, (_, i) => `t${i}`) } }) },
  { name: 'rememberBatch: over MAX_BATCH_SIZE', query: BATCH, variables: (ns) => ({ i: Array.from({ length: 501 }, () => ({ content: '', namespace: ns })) }) },
  { name: 'rememberBatch: every item invalid', query: BATCH, variables: (ns) => ({ i: [{ content: '', namespace: ns }, { content: 'z'.repeat(60_000), namespace: ns }] }) },
  { name: 'memoriesConnection: invalid cursor', query: 'query Q($ns: String) { memoriesConnection(namespace: $ns, after: "not-a-cursor") { totalCount } }' },
  { name: 'memoriesConnection: page over MAX_PAGE_SIZE', query: 'query Q($ns: String) { memoriesConnection(namespace: $ns, first: 100000) { totalCount } }' },
  { name: 'memoriesConnection: negative page', query: 'query Q($ns: String) { memoriesConnection(namespace: $ns, first: -1) { totalCount } }' },
  { name: 'entities: invalid cursor', query: 'query Q($ns: String) { entities(namespace: $ns, after: "%%%") { totalCount } }' },
  { name: 'jobs: invalid cursor', query: 'query Q($ns: String) { jobs(namespace: $ns, after: "\u0000") { edges { node { id } } } }' },
  { name: 'memories: too many ids', query: 'query Q($ids: [ID!]!) { memories(ids: $ids) { id } }', variables: () => ({ ids: Array.from({ length: 1_000 }, (_, i) => `id-${i}`) }) },
  { name: 'recall: Lucene metacharacters', query: 'query Q($ns: String, $q: String!) { recall(query: $q, namespace: $ns) { items { score } } }', variables: (ns) => ({ ns, q: LUCENE }) },
  { name: 'recall: Cypher metacharacters', query: 'query Q($ns: String, $q: String!) { recall(query: $q, namespace: $ns) { items { score } } }', variables: (ns) => ({ ns, q: CYPHER }) },
  { name: 'recall: lone surrogate and control characters', query: 'query Q($ns: String, $q: String!) { recall(query: $q, namespace: $ns) { items { score } } }', variables: (ns) => ({ ns, q: LONE_SURROGATE + CONTROL }) },
  { name: 'recall: oversized query', query: 'query Q($ns: String, $q: String!) { recall(query: $q, namespace: $ns, limit: 1) { items { score } } }', variables: (ns) => ({ ns, q: 'q'.repeat(200_000) }) },
  { name: 'recall: limit out of range', query: 'query Q($ns: String) { recall(query: "a", namespace: $ns, limit: -5) { items { score } } }' },
  { name: 'search: Lucene metacharacters', query: 'query Q($ns: String, $q: String!) { search(query: $q, namespace: $ns) { hits { id } } }', variables: (ns) => ({ ns, q: LUCENE }) },
  { name: 'search: negative offset', query: 'query Q($ns: String) { search(query: "a", namespace: $ns, offset: -1) { hits { id } } }' },
  { name: 'timeline: unknown anchor', query: 'query Q($ns: String) { timeline(anchor: "no-such-memory", namespace: $ns) { anchor { id } } }' },
  { name: 'timeline: huge window', query: 'query Q($ns: String) { timeline(query: "a", namespace: $ns, before: 100000, after: 100000) { anchor { id } } }' },
  { name: 'entity: Cypher in the name', query: 'query Q($ns: String, $n: String) { entity(name: $n, namespace: $ns) { id } }', variables: (ns) => ({ ns, n: CYPHER }) },
  { name: 'entities: regex metacharacters in search', query: 'query Q($ns: String) { entities(namespace: $ns, search: ".*(a+)+$[") { totalCount } }' },
  { name: 'neighbors: depth out of range', query: 'query { neighbors(entityId: "x", depth: 50) { center { id } } }' },
  { name: 'attributeHistory: unknown entity', query: 'query { attributeHistory(entityId: "nope", aspect: "x") { id } }' },
  { name: 'forget: unknown id with a control-character reason', query: 'mutation { forget(id: "nope", reason: "a\\u0000b") { id } }' },
  { name: 'updateMemory: unknown id', query: 'mutation { updateMemory(id: "nope", content: "x") { id } }' },
  { name: 'requeueJob: unknown id', query: 'mutation { requeueJob(id: "nope") { id } }' },
  { name: 'pin: lone surrogate id', query: 'mutation Q($id: ID!) { pin(id: $id) { id } }', variables: () => ({ id: LONE_SURROGATE }) },
  { name: 'unknown field', query: '{ memoriez { id } }' },
  { name: 'syntax error', query: '{ recall(query: ' },
  { name: 'deep query', query: `{ memory(id: "x") { ${'entities { memories { '.repeat(10)}id${' } }'.repeat(10)} } }` },
  { name: 'wide query of aliases', query: `{ ${Array.from({ length: 200 }, (_, i) => `a${i}: health { ok }`).join(' ')} }` },
  { name: 'many identical fields', query: `{ ${'health { ok } '.repeat(600)} }` },
];

const ACCEPTABLE_CODES = new Set([
  'BAD_USER_INPUT',
  'NOT_FOUND',
  'LIMIT_EXCEEDED',
  'FORBIDDEN',
  'PII_REJECTED',
  'GRAPHQL_VALIDATION_FAILED',
  'GRAPHQL_PARSE_FAILED',
  'BAD_REQUEST',
]);

describe('hostile inputs at the GraphQL edge: each answered with a code, the store unchanged', () => {
  let http: TestHttpServer;
  const namespace = uniqueNamespace('hostile');
  const nodes = async () => (await http.services.executor.read<{ n: number }>('test.count', NODES, { namespace }))[0]!.n;

  beforeAll(async () => {
    http = await startTestHttpServer({ DEFAULT_NAMESPACE: namespace, MAX_REQUEST_BYTES: String(4 * 1024 * 1024) });
    const seeded = await http.post({ query: REMEMBER, variables: { i: { content: 'Ada keeps the billing service on Neo4j', namespace } } });
    expect(seeded.body.errors).toBeUndefined();
  });
  afterAll(async () => {
    await cleanNamespace(http.services, namespace);
    await http?.close();
  });

  it.each(CASES.map((c) => [c.name, c] as const))('%s', async (_, c) => {
    const before = await nodes();
    const { status, body } = await http.post({ query: c.query, variables: c.variables?.(namespace) ?? { ns: namespace } });
    expect(status).toBeLessThan(500);
    const codes: string[] = (body.errors ?? []).map((e: any) => e.extensions?.code);
    for (const item of body.data?.rememberBatch ?? []) codes.push(item.error?.code ?? 'STORED');
    // Reads with odd but harmless input may succeed; what must never happen is an uncoded or internal error.
    for (const code of codes) expect(ACCEPTABLE_CODES.has(code), `${c.name}: ${JSON.stringify(body).slice(0, 300)}`).toBe(true);
    expect(await nodes()).toBe(before);
  });
});
