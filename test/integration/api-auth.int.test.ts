import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Services } from '../../src/app.js';
import { createEntity, relate } from '../support/graph-fixtures.js';
import { graphqlClient } from '../support/graphql.js';
import { cleanNamespace, testServices, uniqueNamespace } from '../support/services.js';

/**
 * Every query and mutation tried across namespaces. Two namespaces, A and B, each with a
 * read-write key, plus a read-only key for A. The rule: a namespace argument the key lacks is
 * FORBIDDEN; an id in a namespace the key lacks looks exactly like a missing id (null or
 * NOT_FOUND); a read-only key is FORBIDDEN every mutation; no key at all is UNAUTHENTICATED.
 */

const KEY_A = 'key-a-0123456789abcdef';
const KEY_B = 'key-b-0123456789abcdef';
const KEY_A_READ = 'key-a-readonly-0123456789';
const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

interface Fixture {
  memoryId: string;
  entityId: string;
  aspectId: string;
  aspectName: string;
  attributeId: string;
  jobId: string;
  deadJobId: string;
}

type Expect = 'ok' | 'null' | 'FORBIDDEN' | 'NOT_FOUND' | 'UNAUTHENTICATED';

interface Operation {
  name: string;
  query: string;
  vars: (f: Fixture, ns: string) => Record<string, unknown>;
  mutation?: boolean;
}

// Every root field of schema.graphql except health (no namespace data).
const OPERATIONS: Operation[] = [
  { name: 'memory', query: `query ($id: ID!) { memory(id: $id) { id } }`, vars: (f) => ({ id: f.memoryId }) },
  { name: 'memories', query: `query ($ids: [ID!]!) { memories(ids: $ids) { id } }`, vars: (f) => ({ ids: [f.memoryId] }) },
  {
    name: 'memoriesConnection',
    query: `query ($ns: String) { memoriesConnection(namespace: $ns) { totalCount } }`,
    vars: (_, ns) => ({ ns }),
  },
  {
    name: 'recall',
    query: `query ($ns: String) { recall(query: "payments", namespace: $ns) { items { memory { id } } } }`,
    vars: (_, ns) => ({ ns }),
  },
  { name: 'search', query: `query ($ns: String) { search(query: "payments", namespace: $ns) { hits { id } } }`, vars: (_, ns) => ({ ns }) },
  {
    name: 'timeline',
    query: `query ($ns: String, $id: ID) { timeline(anchor: $id, namespace: $ns) { anchor { id } } }`,
    vars: (f, ns) => ({ ns, id: f.memoryId }),
  },
  { name: 'entity by id', query: `query ($id: ID) { entity(id: $id) { id } }`, vars: (f) => ({ id: f.entityId }) },
  { name: 'entity by name', query: `query ($ns: String) { entity(name: "Alice", namespace: $ns) { id } }`, vars: (_, ns) => ({ ns }) },
  { name: 'entities', query: `query ($ns: String) { entities(namespace: $ns) { edges { node { id } } } }`, vars: (_, ns) => ({ ns }) },
  { name: 'aspect', query: `query ($id: ID!) { aspect(id: $id) { id } }`, vars: (f) => ({ id: f.aspectId }) },
  {
    name: 'attributeHistory',
    query: `query ($id: ID!, $a: String!) { attributeHistory(entityId: $id, aspect: $a) { id } }`,
    vars: (f) => ({ id: f.entityId, a: f.aspectName }),
  },
  { name: 'relations', query: `query ($id: ID!) { relations(entityId: $id) { type } }`, vars: (f) => ({ id: f.entityId }) },
  { name: 'neighbors', query: `query ($id: ID!) { neighbors(entityId: $id) { center { id } } }`, vars: (f) => ({ id: f.entityId }) },
  { name: 'jobs', query: `query ($ns: String) { jobs(namespace: $ns) { edges { node { id } } } }`, vars: (_, ns) => ({ ns }) },
  {
    name: 'pipelineStatus',
    query: `query ($ns: String) { pipelineStatus(namespace: $ns) { queue { pending } } }`,
    vars: (_, ns) => ({ ns }),
  },
  {
    name: 'remember',
    mutation: true,
    query: `mutation ($ns: String) { remember(input: { content: "Carol reviews every schema migration.", namespace: $ns }) { memory { id } } }`,
    vars: (_, ns) => ({ ns }),
  },
  {
    name: 'rememberBatch',
    mutation: true,
    query: `mutation ($ns: String) { rememberBatch(inputs: [{ content: "Dave owns the on-call rota.", namespace: $ns }]) { index error { code } } }`,
    vars: (_, ns) => ({ ns }),
  },
  {
    name: 'forget',
    mutation: true,
    query: `mutation ($id: ID!) { forget(id: $id, reason: "probe") { id } }`,
    vars: (f) => ({ id: f.memoryId }),
  },
  { name: 'pin', mutation: true, query: `mutation ($id: ID!) { pin(id: $id) { id } }`, vars: (f) => ({ id: f.memoryId }) },
  { name: 'unpin', mutation: true, query: `mutation ($id: ID!) { unpin(id: $id) { id } }`, vars: (f) => ({ id: f.memoryId }) },
  {
    name: 'updateMemory',
    mutation: true,
    query: `mutation ($id: ID!) { updateMemory(id: $id, content: "Mallory rewrote this memory.") { id } }`,
    vars: (f) => ({ id: f.memoryId }),
  },
  { name: 'requeueJob', mutation: true, query: `mutation ($id: ID!) { requeueJob(id: $id) { id } }`, vars: (f) => ({ id: f.deadJobId }) },
];

/** What key B gets for namespace A's data: namespace arguments are refused, ids are not found. */
const CROSS: Record<string, Expect> = {
  memory: 'null',
  memories: 'null',
  memoriesConnection: 'FORBIDDEN',
  recall: 'FORBIDDEN',
  search: 'FORBIDDEN',
  timeline: 'FORBIDDEN',
  'entity by id': 'null',
  'entity by name': 'FORBIDDEN',
  entities: 'FORBIDDEN',
  aspect: 'null',
  attributeHistory: 'NOT_FOUND',
  relations: 'NOT_FOUND',
  neighbors: 'NOT_FOUND',
  jobs: 'FORBIDDEN',
  pipelineStatus: 'FORBIDDEN',
  remember: 'FORBIDDEN',
  rememberBatch: 'FORBIDDEN',
  forget: 'NOT_FOUND',
  pin: 'NOT_FOUND',
  unpin: 'NOT_FOUND',
  updateMemory: 'NOT_FOUND',
  requeueJob: 'NOT_FOUND',
};

describe('namespace isolation and API keys across every operation', () => {
  let services: Services;
  let gql: Awaited<ReturnType<typeof graphqlClient>>;
  const nsA = uniqueNamespace('auth-a');
  const nsB = uniqueNamespace('auth-b');
  let a: Fixture;
  let b: Fixture;

  async function fixture(key: string, ns: string): Promise<Fixture> {
    const { remember } = await gql.data(
      `mutation ($ns: String) { remember(input: { content: "We decided to use Postgres over MySQL for the payments ledger.", namespace: $ns }) {
         memory { id entities { id name aspects { id name attributes { id } } } } } }`,
      { ns },
      bearer(key),
    );
    const entity = remember.memory.entities.find((e: { aspects: unknown[] }) => e.aspects.length > 0);
    const other = await createEntity(services, ns, 'Alice');
    await relate(services, entity.id, other, 'uses');
    const [job] = await services.executor.read<{ id: string }>('test.job', `MATCH (j:Job)-[:FOR]->(:Memory {id: $id}) RETURN j.id AS id`, {
      id: remember.memory.id,
    });
    const deadJobId = randomUUID();
    await services.executor.write(
      'test.dead-job',
      `MATCH (m:Memory {id: $memoryId})
       CREATE (:Job {id: $id, namespace: m.namespace, kind: 'extract', status: 'dead', attempts: 3, maxAttempts: 3, error: 'boom',
                     createdAt: $now, updatedAt: $now, failedAt: $now, availableAt: $now})-[:FOR]->(m)`,
      { memoryId: remember.memory.id, id: deadJobId, now: new Date().toISOString() },
    );
    return {
      memoryId: remember.memory.id,
      entityId: entity.id,
      aspectId: entity.aspects[0].id,
      aspectName: entity.aspects[0].name,
      attributeId: entity.aspects[0].attributes[0].id,
      jobId: job!.id,
      deadJobId,
    };
  }

  beforeAll(async () => {
    services = testServices({
      DEFAULT_NAMESPACE: nsA,
      API_KEYS: JSON.stringify([
        { key: KEY_A, name: 'agent-a', namespaces: [nsA] },
        { key: KEY_B, name: 'agent-b', namespaces: [nsB] },
        { key: KEY_A_READ, name: 'viewer-a', namespaces: [nsA], readOnly: true },
      ]),
    });
    await services.embedder.load();
    gql = await graphqlClient(services);
    a = await fixture(KEY_A, nsA);
    b = await fixture(KEY_B, nsB);
  });
  afterAll(async () => {
    await cleanNamespace(services, nsA);
    await cleanNamespace(services, nsB);
    await gql.stop();
    await services.executor.close();
  });

  const outcome = async (op: Operation, key: string, f: Fixture, ns: string): Promise<Expect> => {
    const result = await gql.exec<Record<string, unknown>>(op.query, op.vars(f, ns), bearer(key));
    const code = result.errors?.[0]?.extensions?.code;
    if (code) return code as Expect;
    const value = Object.values(result.data ?? {})[0];
    // rememberBatch answers per item: a namespace the key may not write is that item's code.
    const itemCode = Array.isArray(value)
      ? (value as Array<{ error?: { code: string } | null } | null>).find((v) => v?.error)?.error?.code
      : undefined;
    if (itemCode) return itemCode as Expect;
    return value === null || (Array.isArray(value) && value.every((v) => v === null)) ? 'null' : 'ok';
  };

  it('refuses namespace A to key B: FORBIDDEN for namespace arguments, null/NOT_FOUND for ids', async () => {
    const seen: Record<string, Expect> = {};
    for (const op of OPERATIONS) seen[op.name] = await outcome(op, KEY_B, a, nsA);
    expect(seen).toEqual(CROSS);
  });

  it("does not resolve ids of namespace A inside key B's own namespace either", async () => {
    // A foreign anchor is answered exactly like an unknown one.
    const TIMELINE = `query ($id: ID, $ns: String) { timeline(anchor: $id, namespace: $ns) { anchor { id } before { id } after { id } } }`;
    const foreign = await gql.exec<any>(TIMELINE, { id: a.memoryId, ns: nsB }, bearer(KEY_B));
    const unknown = await gql.exec<any>(TIMELINE, { id: randomUUID(), ns: nsB }, bearer(KEY_B));
    expect(foreign.errors?.[0]?.extensions?.code ?? 'none').toBe(unknown.errors?.[0]?.extensions?.code ?? 'none');
    expect(JSON.stringify(foreign.data ?? null)).not.toContain(a.memoryId);
    const entity = await gql.data(
      `query ($id: ID, $ns: String) { entity(id: $id, namespace: $ns) { id } }`,
      { id: a.entityId, ns: nsB },
      bearer(KEY_B),
    );
    expect(entity.entity).toBeNull();
    const mixed = await gql.data(`query ($ids: [ID!]!) { memories(ids: $ids) { id } }`, { ids: [b.memoryId, a.memoryId] }, bearer(KEY_B));
    expect(mixed.memories).toEqual([{ id: b.memoryId }, null]);
  });

  it('refuses key B namespace A by default too (DEFAULT_NAMESPACE is A)', async () => {
    const defaulted = OPERATIONS.filter((op) => CROSS[op.name] === 'FORBIDDEN');
    for (const op of defaulted) expect(await outcome(op, KEY_B, a, undefined as unknown as string), op.name).toBe('FORBIDDEN');
  });

  it('leaves namespace A untouched after every cross-namespace attempt', async () => {
    const { memory } = await gql.data(
      `query ($id: ID!) { memory(id: $id) { content pinned deletedAt history { event } } }`,
      { id: a.memoryId },
      bearer(KEY_A),
    );
    expect(memory).toMatchObject({
      content: 'We decided to use Postgres over MySQL for the payments ledger.',
      pinned: false,
      deletedAt: null,
    });
    expect(memory.history.map((h: { event: string }) => h.event)).toEqual(['created']);
    const [counts] = await services.executor.read<{ memories: number; deadJobs: number }>(
      'test.counts',
      `MATCH (m:Memory {namespace: $ns}) WITH count(m) AS memories
       MATCH (j:Job {namespace: $ns, status: 'dead'}) RETURN memories, count(j) AS deadJobs`,
      { ns: nsA },
    );
    expect(counts).toEqual({ memories: 1, deadJobs: 1 });
  });

  it('lets the read-only key read namespace A and refuses it every mutation', async () => {
    for (const op of OPERATIONS) {
      const expected: Expect = op.mutation ? 'FORBIDDEN' : 'ok';
      expect(await outcome(op, KEY_A_READ, a, nsA), op.name).toBe(expected);
    }
    // A read-only key learns nothing about ids elsewhere either: refused before any lookup.
    for (const op of OPERATIONS.filter((o) => o.mutation)) expect(await outcome(op, KEY_A_READ, b, nsB), op.name).toBe('FORBIDDEN');
  });

  it('gives the owner key every operation on its own namespace', async () => {
    for (const op of OPERATIONS.filter((o) => !o.mutation)) expect(await outcome(op, KEY_B, b, nsB), op.name).toBe('ok');
  });

  it('requires a key for every operation', async () => {
    for (const op of [...OPERATIONS, { name: 'health', query: `{ health { ok } }`, vars: () => ({}) }]) {
      await expect(gql.exec(op.query, op.vars(a, nsA), {}), op.name).rejects.toMatchObject({ code: 'UNAUTHENTICATED' });
      await expect(gql.exec(op.query, op.vars(a, nsA), bearer('not-a-configured-key-at-all')), op.name).rejects.toMatchObject({
        code: 'UNAUTHENTICATED',
      });
    }
  });

  it('never follows an edge into another namespace from nested fields', async () => {
    // Plant cross-namespace edges B → A the write path would never make.
    const aliceA = await createEntity(services, nsA, 'Eve');
    await relate(services, b.entityId, aliceA, 'spies_on');
    await relate(services, aliceA, b.entityId, 'reports_to');
    await services.executor.write(
      'test.cross-edges',
      `MATCH (mb:Memory {id: $mb}), (ea:Entity {id: $ea}), (ma:Memory {id: $ma}), (attrB:Attribute {id: $attrB}), (attrA:Attribute {id: $attrA})
       CREATE (mb)-[:MENTIONS]->(ea), (ma)-[:MENTIONS]->(:Entity {id: randomUUID(), namespace: $nsA, name: 'Zed', canonicalName: 'zed', mentions: 1})
       CREATE (attrB)-[:SUPERSEDES]->(attrA), (attrA)-[:FROM]->(mb)`,
      { mb: b.memoryId, ea: aliceA, ma: a.memoryId, attrB: b.attributeId, attrA: a.attributeId, nsA },
    );
    await services.executor.write(
      'test.cross-mention',
      `MATCH (ma:Memory {id: $ma}), (eb:Entity {id: $eb}) CREATE (ma)-[:MENTIONS]->(eb)`,
      { ma: a.memoryId, eb: b.entityId },
    );

    const seen = JSON.stringify(
      await gql.data(
        `query ($m: ID!, $e: ID!, $ns: String) {
           memory(id: $m) { id entities { id } attributes { id supersedes { id } } }
           entity(id: $e) { id relations { source { id } target { id } } memories { id } aspects { attributes(includeSuperseded: true) { id supersedes { id } supersededBy { id } source { id } } } }
           relations(entityId: $e) { target { id } }
           neighbors(entityId: $e, depth: 2) { entities { id } relations { source { id } target { id } } }
           entities(namespace: $ns) { edges { node { id relations { target { id } } } } }
         }`,
        { m: b.memoryId, e: b.entityId, ns: nsB },
        bearer(KEY_B),
      ),
    );
    for (const foreign of [aliceA, a.memoryId, a.entityId, a.attributeId, a.aspectId]) expect(seen).not.toContain(foreign);
    expect(seen).toContain(b.entityId);
  });
});
