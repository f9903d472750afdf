import type { Services } from '../../src/app.js';
import { beforeEach, describe, expect, integrationTest } from '../support/fixture.js';
import { cleanNamespace, testServices, uniqueNamespace } from '../support/services.js';
import { faultingExecutor } from '../support/faulting-executor.js';

const REMEMBER = `
mutation Remember($input: RememberInput!) {
  remember(input: $input) {
    memory { id content type importance tags externalId chunks { index text } entities { name type } }
    dedup { action existingId similarity }
    redactions { kind count }
    tags
    importance
  }
}`;

const COUNT = `MATCH (m:Memory {namespace: $namespace}) RETURN count(m) AS memories`;

const namespace = uniqueNamespace('remember');
const it = integrationTest({ env: { DEFAULT_NAMESPACE: namespace }, sharedNamespaces: [namespace] });

describe('remember against the real Neo4j', () => {
  let services: Services;
  beforeEach(({ services: fixture }) => void (services = fixture));

  const countMemories = async (ns = namespace) =>
    (await services.executor.read<{ memories: number }>('test.count', COUNT, { namespace: ns }))[0]!.memories;

  it('stores a text with secrets redacted and lists the redaction kinds', async ({ graphql: gql }) => {
    const content = 'Deploy notes: AWS key AKIAIOSFODNN7EXAMPLE, password=hunter2-longer and mail ops@example.com when done.';
    const { remember } = await gql.data(REMEMBER, { input: { content } });
    expect(remember.dedup.action).toBe('STORED_NEW');
    const kinds = remember.redactions.map((r: { kind: string }) => r.kind).sort();
    expect(kinds).toEqual(expect.arrayContaining(['AWS_ACCESS_KEY', 'PASSWORD', 'EMAIL']));
    expect(remember.memory.content).not.toContain('AKIAIOSFODNN7EXAMPLE');
    expect(remember.memory.content).not.toContain('hunter2-longer');
    expect(remember.memory.content).not.toContain('ops@example.com');
    const [stored] = await services.executor.read<{ content: string; chunk: string }>(
      'test.stored',
      'MATCH (m:Memory {id: $id})-[:HAS_CHUNK]->(c:Chunk) RETURN m.content AS content, c.text AS chunk',
      { id: remember.memory.id },
    );
    expect(stored!.content).toContain('[AWS_ACCESS_KEY]');
    expect(stored!.chunk).not.toContain('AKIAIOSFODNN7EXAMPLE');
  });

  it('returns DUPLICATE_EXACT with the first id for the same text, and stores one memory', async ({ graphql: gql, freshNamespace }) => {
    const ns = freshNamespace('dup');
    const input = { content: 'The staging cluster runs on three nodes in eu-west-1.', namespace: ns };
    const first = (await gql.data(REMEMBER, { input })).remember;
    const second = (await gql.data(REMEMBER, { input: { ...input, content: '  The staging cluster runs on three nodes in eu-west-1  ' } }))
      .remember;
    expect(first.dedup.action).toBe('STORED_NEW');
    expect(second.dedup).toMatchObject({ action: 'DUPLICATE_EXACT', existingId: first.memory.id });
    expect(await countMemories(ns)).toBe(1);
    const [row] = await services.executor.read<{ accessCount: number; lastSeenAt: string | null }>(
      'test.seen',
      'MATCH (m:Memory {id: $id}) RETURN m.accessCount AS accessCount, m.lastSeenAt AS lastSeenAt',
      { id: first.memory.id },
    );
    expect(row).toMatchObject({ accessCount: 1 });
    expect(row!.lastSeenAt).not.toBeNull();
  });

  it("returns DUPLICATE_SEMANTIC for a paraphrase at or above the model's duplicate threshold", async ({
    graphql: gql,
    freshNamespace,
  }) => {
    const ns = freshNamespace('sem');
    const original = 'Our team deploys the billing service every Tuesday afternoon.';
    const paraphrase = 'Our team deploys the billing service on every Tuesday afternoon.';
    const [a, b] = await services.embedder.embed([original, paraphrase]);
    // The premise: a different hash but nearly the same meaning.
    const cosine = a!.reduce((sum, x, i) => sum + x * b![i]!, 0);
    expect(cosine).toBeGreaterThanOrEqual(services.embedder.profile.duplicateThreshold); // the premise of this test (e5-small-v2: 0.995 ≥ 0.99)
    const first = (await gql.data(REMEMBER, { input: { content: original, namespace: ns } })).remember;
    const second = (await gql.data(REMEMBER, { input: { content: paraphrase, namespace: ns } })).remember;
    expect(second.dedup).toMatchObject({ action: 'DUPLICATE_SEMANTIC', existingId: first.memory.id });
    expect(second.dedup.similarity).toBeCloseTo(cosine, 2); // the index stores float32
    expect(second.memory.id).toBe(first.memory.id);
    expect(await countMemories(ns)).toBe(1);
  });

  it('links Redis and Memcached and a constraint, visible through entity(name:) right away', async ({ graphql: gql, freshNamespace }) => {
    const ns = freshNamespace('decision');
    const { remember } = await gql.data(REMEMBER, {
      input: { content: 'We decided to use Redis over Memcached for sessions', namespace: ns },
    });
    expect(remember.memory.type).toBe('decision');
    const names = remember.memory.entities.map((e: { name: string }) => e.name.toLowerCase());
    expect(names).toEqual(expect.arrayContaining(['redis', 'memcached']));
    const { entity } = await gql.data(
      `query ($ns: String) { entity(name: "Redis", namespace: $ns) { name mentions aspects { name attributes { kind importance content source { id } } } } }`,
      { ns },
    );
    expect(entity.mentions).toBe(1);
    const attributes = entity.aspects.flatMap((a: { attributes: unknown[] }) => a.attributes);
    expect(attributes).toContainEqual(
      expect.objectContaining({ kind: 'constraint', importance: 0.85, source: { id: remember.memory.id } }),
    );
  });

  it('rejects bad input with a code and writes nothing', async ({ graphql: gql, freshNamespace }) => {
    const ns = freshNamespace('bad');
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ content: '   ', namespace: ns }, 'BAD_USER_INPUT'],
      [{ content: 'x'.repeat(services.config.MAX_CONTENT_CHARS + 1), namespace: ns }, 'LIMIT_EXCEEDED'],
      [{ content: 'fine', namespace: 'no spaces allowed' }, 'BAD_USER_INPUT'],
      [{ content: 'fine', namespace: ns, occurredAt: 'yesterday-ish' }, 'BAD_USER_INPUT'],
      [{ content: 'fine', namespace: ns, metadata: [1, 2] }, 'BAD_USER_INPUT'],
      [{ content: 'my password is', namespace: ns }, 'PII_REJECTED'],
    ];
    for (const [input, code] of cases) {
      const result = await gql.exec(REMEMBER, { input });
      expect(result.errors?.[0]?.extensions?.code, JSON.stringify(input).slice(0, 80)).toBe(code);
    }
    expect(await countMemories(ns)).toBe(0);
  });

  it('stores the valid items of a batch and reports each invalid one', async ({ graphql: gql, freshNamespace }) => {
    const ns = freshNamespace('batch');
    const { rememberBatch } = await gql.data(
      `mutation ($inputs: [RememberInput!]!) { rememberBatch(inputs: $inputs) { index result { dedup { action } memory { id } } error { code message } } }`,
      {
        inputs: [
          { content: 'Alice maintains the payments API written in Go.', namespace: ns },
          { content: '', namespace: ns },
          { content: 'Bob moved the CI pipeline to GitHub Actions last spring.', namespace: ns },
          { content: 'Alice maintains the payments API written in Go.', namespace: ns },
        ],
      },
    );
    expect(rememberBatch.map((r: { index: number }) => r.index)).toEqual([0, 1, 2, 3]);
    expect(rememberBatch[0].result.dedup.action).toBe('STORED_NEW');
    expect(rememberBatch[1].error.code).toBe('BAD_USER_INPUT');
    expect(rememberBatch[2].result.dedup.action).toBe('STORED_NEW');
    expect(rememberBatch[3].result.dedup.action).toBe('DUPLICATE_EXACT');
    expect(rememberBatch[3].result.memory.id).toBe(rememberBatch[0].result.memory.id);
    expect(await countMemories(ns)).toBe(2);
  });

  it('queues an extract job with every stored memory in the same transaction', async ({ graphql: gql, freshNamespace }) => {
    const ns = freshNamespace('jobs');
    const { remember } = await gql.data(REMEMBER, { input: { content: 'Carol owns the search relevance roadmap for Q3.', namespace: ns } });
    const jobs = await services.executor.read<{ kind: string; status: string }>(
      'test.jobs',
      'MATCH (j:Job)-[:FOR]->(:Memory {id: $id}) RETURN j.kind AS kind, j.status AS status',
      { id: remember.memory.id },
    );
    expect(jobs).toEqual([{ kind: 'extract', status: 'pending' }]);
  });
});

describe('remember atomicity', () => {
  it('leaves nothing behind when the transaction fails after the memory write', async () => {
    const ns = uniqueNamespace('atomic');
    const services = testServices(
      {},
      {
        wrapExecutor: faultingExecutor('remember', {
          beforeCommit: async () => Promise.reject(new Error('injected failure before commit')),
        }),
      },
    );
    try {
      await expect(services.remember.remember({ content: 'We switched from Jenkins to Buildkite for CI.', namespace: ns })).rejects.toThrow(
        /injected failure/,
      );
      const [row] = await services.executor.read<{ nodes: number }>(
        'test.atomic',
        'MATCH (n) WHERE n.namespace = $ns RETURN count(n) AS nodes',
        { ns },
      );
      expect(row!.nodes).toBe(0);
    } finally {
      await cleanNamespace(services, ns);
      await services.executor.close();
    }
  });
});
