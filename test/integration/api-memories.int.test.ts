import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Services } from '../../src/app.js';
import { graphqlClient } from '../support/graphql.js';
import { cleanNamespace, testServices, uniqueNamespace } from '../support/services.js';

const REMEMBER = `
mutation ($input: RememberInput!) { remember(input: $input) { memory { id createdAt } dedup { action existingId } } }`;

const CONNECTION = `
query ($ns: String, $filters: MemoryFilters, $first: Int, $after: String) {
  memoriesConnection(namespace: $ns, filters: $filters, first: $first, after: $after) {
    edges { cursor node { id content type tags importance pinned deletedAt } }
    pageInfo { hasNextPage endCursor }
    totalCount
  }
}`;

// Distinct topics, so semantic dedup never folds two of them together.
const TEXTS = [
  'The billing service retries failed card payments three times before giving up.',
  'Maria prefers dark roast coffee and drinks it without sugar.',
  'Our Kubernetes cluster autoscaler adds nodes when CPU stays above seventy percent.',
  'The quarterly planning offsite will be held in Lisbon next spring.',
  'Use pnpm instead of npm for every frontend repository in the monorepo.',
];

describe('memory queries: memory, memories, memoriesConnection', () => {
  let services: Services;
  let gql: Awaited<ReturnType<typeof graphqlClient>>;
  const ns = uniqueNamespace('conn');
  const ids: string[] = []; // in creation order, oldest first

  beforeAll(async () => {
    services = testServices();
    await services.embedder.load();
    gql = await graphqlClient(services);
    const tagsFor = (i: number) => (i % 2 === 0 ? ['even', 'all'] : ['all']);
    for (const [i, content] of TEXTS.slice(0, 3).entries()) {
      const input = {
        content,
        namespace: ns,
        tags: tagsFor(i),
        sessionId: i === 1 ? 's-1' : null,
        occurredAt: `2024-0${i + 1}-15T10:00:00Z`,
      };
      ids.push((await gql.data(REMEMBER, { input })).remember.memory.id);
    }
    // Two in one batch share createdAt: the id breaks the tie.
    const batch = await gql.data(`mutation ($inputs: [RememberInput!]!) { rememberBatch(inputs: $inputs) { result { memory { id } } } }`, {
      inputs: TEXTS.slice(3).map((content, j) => ({ content, namespace: ns, tags: tagsFor(3 + j), type: 'procedural' })),
    });
    ids.push(...batch.rememberBatch.map((b: { result: { memory: { id: string } } }) => b.result.memory.id));
  });
  afterAll(async () => {
    await cleanNamespace(services, ns);
    await gql.stop();
    await services.executor.close();
  });

  const expectedOrder = () => {
    const batch = ids.slice(3).sort().reverse(); // same createdAt → id descending
    return [...batch, ids[2], ids[1], ids[0]];
  };

  it('lists newest first with totalCount, and pages with cursors to an exact last page', async () => {
    const whole = (await gql.data(CONNECTION, { ns, first: 10 })).memoriesConnection;
    expect(whole.totalCount).toBe(5);
    expect(whole.edges.map((e: { node: { id: string } }) => e.node.id)).toEqual(expectedOrder());
    expect(whole.pageInfo.hasNextPage).toBe(false);

    const seen: string[] = [];
    let after: string | null = null;
    const hasNext: boolean[] = [];
    do {
      const page: any = (await gql.data(CONNECTION, { ns, first: 2, after })).memoriesConnection;
      expect(page.totalCount).toBe(5);
      seen.push(...page.edges.map((e: { node: { id: string } }) => e.node.id));
      hasNext.push(page.pageInfo.hasNextPage);
      expect(page.pageInfo.endCursor).toBe(page.edges.at(-1).cursor);
      after = page.pageInfo.hasNextPage ? page.pageInfo.endCursor : null;
    } while (after);
    expect(seen).toEqual(expectedOrder());
    expect(hasNext).toEqual([true, true, false]);

    // A page that ends exactly at the last memory says there is nothing after it.
    const first4 = (await gql.data(CONNECTION, { ns, first: 4 })).memoriesConnection;
    expect(first4.pageInfo.hasNextPage).toBe(true);
    const last = (await gql.data(CONNECTION, { ns, first: 1, after: first4.pageInfo.endCursor })).memoriesConnection;
    expect(last.edges.map((e: { node: { id: string } }) => e.node.id)).toEqual([ids[0]]);
    expect(last.pageInfo.hasNextPage).toBe(false);
    const beyond = (await gql.data(CONNECTION, { ns, first: 3, after: last.pageInfo.endCursor })).memoriesConnection;
    expect(beyond).toMatchObject({ edges: [], pageInfo: { hasNextPage: false, endCursor: null }, totalCount: 5 });
  });

  it('answers an empty namespace with an empty page', async () => {
    const empty = (await gql.data(CONNECTION, { ns: uniqueNamespace('empty'), first: 5 })).memoriesConnection;
    expect(empty).toEqual({ edges: [], pageInfo: { hasNextPage: false, endCursor: null }, totalCount: 0 });
  });

  it('counts only with first: 0, and refuses negative, oversized pages and bad cursors', async () => {
    const countOnly = (await gql.data(CONNECTION, { ns, first: 0 })).memoriesConnection;
    expect(countOnly).toMatchObject({ edges: [], totalCount: 5, pageInfo: { hasNextPage: true } });
    const code = async (vars: Record<string, unknown>) => (await gql.exec(CONNECTION, { ns, ...vars })).errors?.[0]?.extensions?.code;
    expect(await code({ first: -1 })).toBe('BAD_USER_INPUT');
    expect(await code({ first: services.config.MAX_PAGE_SIZE + 1 })).toBe('LIMIT_EXCEEDED');
    expect(await code({ first: 2, after: 'garbage!' })).toBe('BAD_USER_INPUT');
    expect(await code({ first: 2, after: Buffer.from('["memory",1,2]').toString('base64url') })).toBe('BAD_USER_INPUT');
    expect(await code({ first: 2, after: Buffer.from('["entity",3,"x"]').toString('base64url') })).toBe('BAD_USER_INPUT');
  });

  it('filters by type, tags, session, event time and importance', async () => {
    const idsFor = async (filters: Record<string, unknown>) =>
      new Set(
        (await gql.data(CONNECTION, { ns, first: 10, filters })).memoriesConnection.edges.map((e: { node: { id: string } }) => e.node.id),
      );
    expect(await idsFor({ types: ['procedural'] })).toEqual(new Set(ids.slice(3)));
    expect(await idsFor({ tags: ['even', 'all'] })).toEqual(new Set([ids[0], ids[2], ids[4]]));
    expect(await idsFor({ sessionId: 's-1' })).toEqual(new Set([ids[1]]));
    expect(await idsFor({ occurredAfter: '2024-02-01T00:00:00Z', occurredBefore: '2024-03-31T00:00:00Z' })).toEqual(
      new Set([ids[1], ids[2]]),
    );
    expect(await idsFor({ minImportance: 1.01 })).toEqual(new Set());
    const filtered = (await gql.data(CONNECTION, { ns, first: 1, filters: { tags: ['even'] } })).memoriesConnection;
    expect(filtered.totalCount).toBe(3);
  });

  it('returns memories by id in the order asked, null for unknown ids, and caps the list', async () => {
    const unknown = randomUUID();
    const { memories } = await gql.data(`query ($ids: [ID!]!) { memories(ids: $ids) { id content } }`, { ids: [ids[2], unknown, ids[0]] });
    expect(memories.map((m: { id: string } | null) => m?.id ?? null)).toEqual([ids[2], null, ids[0]]);
    expect(memories[0].content).toBe(TEXTS[2]);
    expect((await gql.data(`query ($id: ID!) { memory(id: $id) { id } }`, { id: unknown })).memory).toBeNull();
    const tooMany = await gql.exec(`query ($ids: [ID!]!) { memories(ids: $ids) { id } }`, {
      ids: Array.from({ length: services.config.MAX_PAGE_SIZE + 1 }, () => randomUUID()),
    });
    expect(tooMany.errors?.[0]?.extensions?.code).toBe('LIMIT_EXCEEDED');
  });
});

describe('forget, pin and unpin', () => {
  let services: Services;
  let gql: Awaited<ReturnType<typeof graphqlClient>>;
  const ns = uniqueNamespace('forget');

  beforeAll(async () => {
    services = testServices();
    await services.embedder.load();
    gql = await graphqlClient(services);
  });
  afterAll(async () => {
    await cleanNamespace(services, ns);
    await gql.stop();
    await services.executor.close();
  });

  const FORGET = `mutation ($id: ID!, $reason: String) { forget(id: $id, reason: $reason) { id deletedAt history { event reason actor } } }`;

  it('soft-deletes with a reason: gone from recall and the connection, and rememberable again', async () => {
    const content = 'The staging database credentials rotate on the first Monday of every month.';
    const first = (await gql.data(REMEMBER, { input: { content, namespace: ns } })).remember.memory.id;
    const recallIds = async () =>
      (
        await gql.data(
          `query ($ns: String) { recall(query: "when do the staging database credentials rotate", namespace: $ns) { items { memory { id } } } }`,
          { ns },
        )
      ).recall.items.map((i: { memory: { id: string } }) => i.memory.id);
    expect(await recallIds()).toContain(first);

    const { forget } = await gql.data(FORGET, { id: first, reason: 'outdated policy' });
    expect(forget.deletedAt).not.toBeNull();
    expect(forget.history.map((h: { event: string }) => h.event)).toEqual(['created', 'forgotten']);
    expect(forget.history[1]).toMatchObject({ reason: 'outdated policy', actor: 'local' });

    expect(await recallIds()).not.toContain(first);
    const live = (await gql.data(CONNECTION, { ns, first: 10 })).memoriesConnection;
    expect(live.edges.map((e: { node: { id: string } }) => e.node.id)).not.toContain(first);
    const withDeleted = (await gql.data(CONNECTION, { ns, first: 10, filters: { includeDeleted: true } })).memoriesConnection;
    expect(withDeleted.edges.map((e: { node: { id: string } }) => e.node.id)).toContain(first);
    // By id it is still there, marked deleted.
    expect((await gql.data(`query ($id: ID!) { memory(id: $id) { deletedAt } }`, { id: first })).memory.deletedAt).toEqual(
      forget.deletedAt,
    );

    const again = (await gql.data(REMEMBER, { input: { content, namespace: ns } })).remember;
    expect(again.dedup.action).toBe('STORED_NEW');
    expect(again.memory.id).not.toBe(first);

    // Forgetting twice changes nothing and records nothing.
    const twice = (await gql.data(FORGET, { id: first, reason: 'again' })).forget;
    expect(twice.deletedAt).toEqual(forget.deletedAt);
    expect(twice.history.map((h: { event: string }) => h.event)).toEqual(['created', 'forgotten']);
  });

  it('reports NOT_FOUND for unknown ids and refuses an overlong reason', async () => {
    expect((await gql.exec(FORGET, { id: randomUUID() })).errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
    const id = (await gql.data(REMEMBER, { input: { content: 'Grafana dashboards live in the observability folder.', namespace: ns } }))
      .remember.memory.id;
    expect((await gql.exec(FORGET, { id, reason: 'x'.repeat(1001) })).errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect((await gql.data(`query ($id: ID!) { memory(id: $id) { deletedAt } }`, { id })).memory.deletedAt).toBeNull();
  });

  it('pins and unpins, recording each change once', async () => {
    const id = (await gql.data(REMEMBER, { input: { content: 'Always run database migrations before deploying the API.', namespace: ns } }))
      .remember.memory.id;
    const PIN = `mutation ($id: ID!) { pin(id: $id) { pinned history { event } } }`;
    const UNPIN = `mutation ($id: ID!) { unpin(id: $id) { pinned history { event } } }`;
    expect((await gql.data(PIN, { id })).pin.pinned).toBe(true);
    const twice = (await gql.data(PIN, { id })).pin;
    expect(twice.history.map((h: { event: string }) => h.event)).toEqual(['created', 'pinned']);
    const unpinned = (await gql.data(UNPIN, { id })).unpin;
    expect(unpinned.pinned).toBe(false);
    expect(unpinned.history.map((h: { event: string }) => h.event)).toEqual(['created', 'pinned', 'unpinned']);
    expect((await gql.exec(PIN, { id: randomUUID() })).errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
  });
});
