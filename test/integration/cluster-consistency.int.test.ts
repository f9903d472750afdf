import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BOOKMARK_HEADER, decodeBookmarkToken, encodeBookmarkToken } from '../../src/consistency/index.js';
import { touchAccessed } from '../../src/db/queries/memory-lookups.js';
import { startTestHttpServer, type TestHttpServer } from '../support/http.js';
import { cleanNamespace, uniqueNamespace } from '../support/services.js';

const REMEMBER = `mutation($input: RememberInput!) { remember(input: $input) { memory { id } } }`;
const RECALL = `query($q: String!, $ns: String) { recall(query: $q, namespace: $ns, limit: 5) { items { memory { id } } } }`;
const MEMORY = `query($id: ID!) { memory(id: $id) { id content } }`;

/** The same bookmark with its transaction id far ahead of anything the database has committed. */
function bookmarkAhead(token: string): string {
  const [bookmark] = decodeBookmarkToken(token);
  const raw = Buffer.from(bookmark!.slice(3), 'base64');
  // Neo4j 5: packstream list marker, the database uuid as bytes(16), then the transaction id
  // as a packstream integer; replace it with an INT_64 ten million transactions further.
  const at = 19;
  const marker = raw[at]!;
  const width = marker === 0xc8 ? 2 : marker === 0xc9 ? 3 : marker === 0xca ? 5 : marker === 0xcb ? 9 : 1;
  const txId = width === 1 ? BigInt(marker) : BigInt(raw.subarray(at + 1, at + width).readIntBE(0, Math.min(width - 1, 6)));
  const int64 = Buffer.alloc(9);
  int64[0] = 0xcb;
  int64.writeBigInt64BE(txId + 10_000_000n, 1);
  const ahead = Buffer.concat([raw.subarray(0, at), int64, raw.subarray(at + width)]);
  return encodeBookmarkToken([`FB:${ahead.toString('base64')}`]);
}

describe('read your own writes across replicas (bookmarks)', () => {
  let a: TestHttpServer;
  let b: TestHttpServer;
  const namespace = uniqueNamespace('bookmarks');

  beforeAll(async () => {
    // Two service instances, each with its own driver and pool: two replicas of one database.
    [a, b] = await Promise.all([startTestHttpServer(), startTestHttpServer()]);
  });

  afterAll(async () => {
    await cleanNamespace(a.services, namespace);
    await Promise.all([a.close(), b.close()]);
  });

  it('a write answers its bookmark in a header and in extensions; replica B reads the write with it', async () => {
    const written = await a.post({
      query: REMEMBER,
      variables: { input: { namespace, content: 'The staging cluster runs on three Hetzner boxes in Falkenstein.' } },
    });
    expect(written.body.errors).toBeUndefined();
    const token = written.headers.get(BOOKMARK_HEADER);
    expect(token).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(written.body.extensions.bookmark).toBe(token);
    expect(decodeBookmarkToken(token!)[0]).toMatch(/^FB:/);

    const id = written.body.data.remember.memory.id as string;
    const byId = await b.post({ query: MEMORY, variables: { id } }, { [BOOKMARK_HEADER]: token! });
    expect(byId.body.data.memory.id).toBe(id);
    const recalled = await b.post(
      { query: RECALL, variables: { q: 'Where does the staging cluster run?', ns: namespace } },
      { [BOOKMARK_HEADER]: token! },
    );
    expect(recalled.body.data.recall.items.map((i: { memory: { id: string } }) => i.memory.id)).toContain(id);
    // The chain continues: B answers a bookmark at least as new as the one it was given.
    expect(recalled.headers.get(BOOKMARK_HEADER)).toBeTruthy();
  });

  it('refuses a malformed or oversized bookmark header with BAD_USER_INPUT', async () => {
    for (const value of [
      'not a token!',
      'x'.repeat(5000),
      Buffer.from('{"a":1}').toString('base64url'),
      encodeBookmarkToken(['has space']),
    ]) {
      const response = await b.post({ query: MEMORY, variables: { id: 'x' } }, { [BOOKMARK_HEADER]: value });
      expect(response.status).toBe(400);
      expect(response.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
    }
  });

  it('a bookmark that is not of this database is BAD_USER_INPUT', async () => {
    const response = await b.post({ query: MEMORY, variables: { id: 'x' } }, { [BOOKMARK_HEADER]: encodeBookmarkToken(['FB:garbage']) });
    expect(response.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
  });

  // Neo4j waits db.transaction.bookmark_ready_timeout (30 s by default) for a bookmark it has not reached.
  it('a bookmark ahead of the database makes the read wait, then fail with a code', async () => {
    const written = await a.post({
      query: REMEMBER,
      variables: { input: { namespace, content: 'Bookmarks travel with the request to the server.' } },
    });
    const ahead = bookmarkAhead(written.headers.get(BOOKMARK_HEADER)!);
    const started = performance.now();
    const response = await b.post({ query: MEMORY, variables: { id: written.body.data.remember.memory.id } }, { [BOOKMARK_HEADER]: ahead });
    const waitedMs = performance.now() - started;
    expect(response.body.errors?.[0]?.extensions.code, JSON.stringify(response.body)).toMatch(/^(TIMEOUT|UNAVAILABLE)$/);
    expect(waitedMs).toBeGreaterThan(5_000);
    expect(JSON.stringify(response.body)).not.toMatch(/Neo\.|FB:/);
  }, 120_000);
});

describe('transaction timeout on every query', () => {
  let server: TestHttpServer;

  beforeAll(async () => {
    server = await startTestHttpServer({ NEO4J_READ_TIMEOUT_MS: '300', NEO4J_WRITE_TIMEOUT_MS: '400' });
  });
  afterAll(() => server.close());

  const SLOW = 'UNWIND range(1, 500000000) AS x WITH x WHERE x = -1 RETURN count(*) AS n';

  it('a slow read is stopped by the server and answers TIMEOUT', async () => {
    const started = performance.now();
    await expect(server.services.executor.read('test.slow-read', SLOW)).rejects.toMatchObject({ code: 'TIMEOUT' });
    expect(performance.now() - started).toBeLessThan(20_000);
  });

  it('a slow write and a slow auto-commit query answer TIMEOUT too', async () => {
    await expect(server.services.executor.write('test.slow-write', SLOW)).rejects.toMatchObject({ code: 'TIMEOUT' });
    await expect(server.services.executor.autoCommit('test.slow-auto', SLOW)).rejects.toMatchObject({ code: 'TIMEOUT' });
  });
});

describe('recall performs no write in its request path', () => {
  let server: TestHttpServer;
  const namespace = uniqueNamespace('access');

  beforeAll(async () => {
    server = await startTestHttpServer({ ACCESS_FLUSH_MS: '600000' });
  });
  afterAll(async () => {
    await cleanNamespace(server.services, namespace);
    await server.close();
  });

  const accessCount = async (id: string) =>
    (await server.services.executor.read<{ n: number }>('test.access', 'MATCH (m:Memory {id: $id}) RETURN m.accessCount AS n', { id }))[0]!
      .n;

  it('counts the transactions of a recall and finds only reads; the counts arrive with the background flush', async () => {
    const written = await server.post({
      query: REMEMBER,
      variables: { input: { namespace, content: 'The on-call rotation changes every Monday at nine.' } },
    });
    const id = written.body.data.remember.memory.id as string;
    const modes: string[] = [];
    const stop = server.services.executor.onQuery((event) => modes.push(event.mode));
    for (let i = 0; i < 3; i += 1) {
      const recalled = await server.post({ query: RECALL, variables: { q: 'When does the on-call rotation change?', ns: namespace } });
      expect(recalled.body.data.recall.items.map((x: { memory: { id: string } }) => x.memory.id)).toContain(id);
    }
    stop();
    expect(modes.length).toBeGreaterThan(0);
    expect(modes.filter((m) => m !== 'read')).toEqual([]);
    expect(await accessCount(id)).toBe(0);

    expect(server.services.accessTracker.snapshot().pending).toBeGreaterThanOrEqual(1);
    await server.services.accessTracker.flush();
    expect(await accessCount(id)).toBe(3);
  });

  it('a flush re-run after a lost COMMIT reply adds nothing', async () => {
    const written = await server.post({
      query: REMEMBER,
      variables: { input: { namespace, content: 'Backups are verified by a restore drill each quarter.' } },
    });
    const id = written.body.data.remember.memory.id as string;
    const rows = [{ id, count: 2, at: new Date().toISOString() }];
    await touchAccessed(server.services.executor, rows, 'flush-1');
    await touchAccessed(server.services.executor, rows, 'flush-1');
    expect(await accessCount(id)).toBe(2);
    await touchAccessed(server.services.executor, rows, 'flush-2');
    expect(await accessCount(id)).toBe(4);
  });
});
