import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Services } from '../../src/app.js';
import { BOOKMARK_HEADER, decodeBookmarkToken } from '../../src/consistency/index.js';
import { forgetMemory } from '../../src/db/queries/memory-mutations.js';
import { extraction, memoryTextOf, stageOf } from '../support/deep-path.js';
import { startFakeOllama, type FakeOllama } from '../support/fake-ollama.js';
import { spawnReplica, type ServiceProcess } from '../support/processes.js';
import { cleanNamespace, testServices, uniqueNamespace } from '../support/services.js';
import { operationIs, packstreamString, startTcpProxy, type TcpProxy } from '../support/tcp-proxy.js';
import { TEST_NEO4J, TEST_NEO4J_URI } from '../support/test-neo4j.js';

const SHARED_URI = process.env.TEST_NEO4J_URI ?? TEST_NEO4J_URI;
const SHARED_PASSWORD = process.env.TEST_NEO4J_PASSWORD ?? TEST_NEO4J.password;
const boltPort = (uri: string) => Number(new URL(uri.replace(/^[a-z+]+:/, 'http:')).port);

// Long enough for several chunks and entities, like write-idempotency.int.test.ts.
const CONTENT = [
  'Alice Johnson prefers Postgres over MySQL for every new service.',
  'We decided to use Kubernetes for the Apollo deployment, with three nodes per region.',
  ...Array.from(
    { length: 12 },
    (_, i) =>
      `Runbook step ${i + 1}: check the dashboards for region ${i + 1}, then confirm the rollout with the on-call engineer before continuing.`,
  ),
].join(' ');

const FOOTPRINT = `
MATCH (m:Memory {namespace: $ns})
RETURN count(m) AS memories,
       sum(COUNT { (m)-[:HAS_CHUNK]->() }) AS hasChunk,
       COUNT { MATCH (c:Chunk) WHERE c.namespace = $ns RETURN c } AS chunks,
       COUNT { MATCH (j:Job) WHERE j.namespace = $ns RETURN j } AS jobs,
       COUNT { MATCH (h:HistoryEvent) WHERE h.namespace = $ns RETURN h } AS history,
       COUNT { MATCH (a:Attribute) WHERE a.namespace = $ns RETURN a } AS attributes,
       COUNT { MATCH (:Memory {namespace: $ns})-[r:MENTIONS]->() RETURN r } AS mentionLinks`;

// Per marker: the memories carrying it, and how many of them had chunks, jobs or events doubled.
const WRITE_CHECK = `
UNWIND $markers AS marker
MATCH (m:Memory {namespace: $ns}) WHERE m.content CONTAINS marker
WITH marker, m,
  CASE WHEN COUNT { (m)-[:HAS_CHUNK]->() } > size(COLLECT { MATCH (m)-[:HAS_CHUNK]->(c) RETURN DISTINCT c.index }) THEN 1 ELSE 0 END
  + CASE WHEN COUNT { MATCH (j:Job)-[:FOR]->(m) RETURN j } > size(COLLECT { MATCH (j:Job)-[:FOR]->(m) RETURN DISTINCT j.kind }) THEN 1 ELSE 0 END
  + CASE WHEN COUNT { MATCH (h:HistoryEvent)-[:ABOUT]->(m) RETURN h } > size(COLLECT { MATCH (h:HistoryEvent)-[:ABOUT]->(m) RETURN DISTINCT h.event }) THEN 1 ELSE 0 END AS doubled
RETURN marker, count(m) AS found, sum(doubled) AS doubledParts`;
const EVENTS_ABOUT = `
UNWIND $ids AS id
MATCH (m:Memory {id: id})
RETURN id, m.content AS content, m.deletedAt IS NOT NULL AS forgotten,
  COUNT { MATCH (h:HistoryEvent)-[:ABOUT]->(m) WHERE h.event = 'updated' RETURN h } AS updates,
  COUNT { MATCH (h:HistoryEvent)-[:ABOUT]->(m) WHERE h.event = 'forgotten' RETURN h } AS forgets`;

const WORDS = [
  'amber',
  'basalt',
  'cobalt',
  'delta',
  'ember',
  'fjord',
  'granite',
  'harbor',
  'indigo',
  'juniper',
  'kelp',
  'lagoon',
  'meadow',
  'nickel',
  'orchid',
  'quartz',
  'raven',
  'saffron',
  'tundra',
  'umber',
  'violet',
  'willow',
];
const CITIES = ['Lisbon', 'Osaka', 'Quito', 'Tallinn', 'Nairobi', 'Perth', 'Bergen', 'Austin', 'Cusco', 'Dakar'];
/** Distinct facts (not near-duplicates of each other), each carrying a unique marker. */
function fact(i: number, marker: string): string {
  const pick = (n: number) => WORDS[(i * 7 + n * 13) % WORDS.length];
  return `Shipment ${marker}: ${i * 37 + 11} crates of ${pick(1)} ${pick(2)} tiles leave ${CITIES[i % CITIES.length]} for the ${pick(3)} warehouse on day ${(i % 28) + 1}.`;
}

async function pool<T>(items: T[], concurrency: number, run: (item: T) => Promise<void>): Promise<void> {
  const queue = [...items];
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (let item = queue.shift(); item !== undefined; item = queue.shift()) await run(item);
    }),
  );
}

describe('at the wire: a fault-injecting proxy between the service and Neo4j', () => {
  let proxy: TcpProxy;
  let plain: Services;
  let proxied: Services;
  const namespaces: string[] = [];
  const ns = (prefix: string) => {
    const n = uniqueNamespace(prefix);
    namespaces.push(n);
    return n;
  };

  beforeAll(async () => {
    proxy = await startTcpProxy({ targetPort: boltPort(SHARED_URI), port: 47690 });
    plain = testServices();
    proxied = testServices({}, { neo4jUri: proxy.url });
    await plain.embedder.load();
  });
  afterAll(async () => {
    for (const n of namespaces) await cleanNamespace(plain, n);
    await proxied?.executor.close();
    await plain?.executor.close();
    await proxy?.close();
  });

  it('a COMMIT reply dropped during remember leaves one memory with one set of chunks, jobs and history', async () => {
    const once = ns('wire-once');
    const dropped = ns('wire-drop');
    await plain.remember.remember({ content: CONTENT, namespace: once });

    proxy.dropCommitReplies(1, operationIs('remember'));
    const before = proxy.stats.droppedCommitReplies;
    const result = await proxied.remember.remember({ content: CONTENT, namespace: dropped });
    // The commit happened, its reply never arrived; the driver re-ran the transaction on a new connection.
    expect(proxy.stats.droppedCommitReplies).toBe(before + 1);
    expect(result.dedup.action).toBe('STORED_NEW');

    const [expected] = await plain.executor.read('test.footprint', FOOTPRINT, { ns: once });
    const [actual] = await plain.executor.read('test.footprint', FOOTPRINT, { ns: dropped });
    expect(expected).toMatchObject({ memories: 1, history: 1 });
    expect(expected!.chunks).toBeGreaterThan(1);
    expect(expected!.jobs).toBeGreaterThan(0);
    expect(actual).toEqual(expected);
  }, 120_000);

  it('connections cut at random during a mixed load lose and double no acknowledged write', async () => {
    const namespace = ns('wire-load');
    // Memories to update and forget, written before the faults start.
    const seeded = await plain.remember.rememberBatch(
      Array.from({ length: 16 }, (_, i) => ({ content: fact(100 + i, `seed-${i}-${randomUUID().slice(0, 8)}`), namespace })),
    );
    const seedIds = seeded.map((o) => o.result!.memory.id);

    type Op = { kind: 'remember' | 'batch' | 'update' | 'forget'; markers: string[]; id?: string; acked?: boolean; error?: string };
    const ops: Op[] = [];
    for (let i = 0; i < 20; i++) ops.push({ kind: 'remember', markers: [`r${i}-${randomUUID().slice(0, 8)}`] });
    for (let i = 0; i < 5; i++) ops.push({ kind: 'batch', markers: [0, 1, 2].map((k) => `b${i}.${k}-${randomUUID().slice(0, 8)}`) });
    for (let i = 0; i < 8; i++) ops.push({ kind: 'update', id: seedIds[i], markers: [`u${i}-${randomUUID().slice(0, 8)}`] });
    for (let i = 8; i < 16; i++) ops.push({ kind: 'forget', id: seedIds[i], markers: [] });
    ops.sort(() => Math.random() - 0.5);
    let n = 0;
    const text = (marker: string) => fact(n++, marker);

    const cutsBefore = proxy.stats.cuts;
    // About one reply in 200 lost with its connection, and every connection cut every 2-6 s.
    proxy.setCutChance(0.005);
    const stopCuts = proxy.randomCuts(2000, 6000);
    try {
      await pool(ops, 4, async (op) => {
        try {
          if (op.kind === 'remember') await proxied.remember.remember({ content: text(op.markers[0]!), namespace });
          if (op.kind === 'batch') {
            const outcomes = await proxied.remember.rememberBatch(op.markers.map((m) => ({ content: text(m), namespace })));
            const failed = outcomes.find((o) => o.error);
            if (failed) throw failed.error;
          }
          if (op.kind === 'update')
            await proxied.update.update({ id: op.id!, namespace, content: text(op.markers[0]!), actor: 'wire-test' });
          if (op.kind === 'forget') {
            if (!(await forgetMemory(proxied.executor, { id: op.id!, namespace, actor: 'wire-test' }, 'wire test')))
              throw new Error('forget found nothing');
          }
          op.acked = true;
        } catch (error) {
          op.acked = false;
          op.error = `${(error as { code?: string }).code ?? ''} ${(error as Error).message.slice(0, 100)}`;
        }
      });
    } finally {
      stopCuts();
      proxy.setCutChance(0);
    }

    // Verified without the proxy.
    const markers = ops.filter((o) => o.kind === 'remember' || o.kind === 'batch' || o.kind === 'update').flatMap((o) => o.markers);
    const byMarker = new Map(
      (
        await plain.executor.read<{ marker: string; found: number; doubledParts: number }>('test.write-check', WRITE_CHECK, {
          ns: namespace,
          markers,
        })
      ).map((r) => [r.marker, r]),
    );
    const byId = new Map(
      (
        await plain.executor.read<{ id: string; content: string; forgotten: boolean; updates: number; forgets: number }>(
          'test.events',
          EVENTS_ABOUT,
          { ids: seedIds },
        )
      ).map((r) => [r.id, r]),
    );

    const tally = { attempted: 0, acknowledged: 0, foundOnce: 0, foundTwice: 0, lost: 0, unacknowledged: 0, unacknowledgedButApplied: 0 };
    const problems: string[] = [];
    for (const op of ops) {
      // A batch is one write per item; an update or forget is one write.
      const writes = op.kind === 'batch' ? op.markers.length : 1;
      tally.attempted += writes;
      if (op.acked) tally.acknowledged += writes;
      else tally.unacknowledged += writes;
      const outcomes: Array<'once' | 'twice' | 'none'> = [];
      if (op.kind === 'forget') {
        const row = byId.get(op.id!)!;
        outcomes.push(!row.forgotten ? 'none' : row.forgets > 1 ? 'twice' : 'once');
      } else {
        for (const marker of op.markers) {
          const row = byMarker.get(marker) ?? { found: 0, doubledParts: 0 };
          const doubled = row.found > 1 || row.doubledParts > 0 || (op.kind === 'update' && byId.get(op.id!)!.updates > 1);
          outcomes.push(row.found === 0 ? 'none' : doubled ? 'twice' : 'once');
        }
      }
      for (const outcome of outcomes) {
        if (outcome === 'twice') {
          tally.foundTwice++;
          problems.push(`${op.kind} ${op.markers.join(',') || op.id} doubled`);
        }
        if (!op.acked) {
          if (outcome !== 'none') tally.unacknowledgedButApplied++;
          continue;
        }
        if (outcome === 'once') tally.foundOnce++;
        if (outcome === 'none') {
          tally.lost++;
          problems.push(`${op.kind} ${op.markers.join(',') || op.id} acknowledged but lost`);
        }
      }
    }
    const summary = {
      test: 'wire-mixed-load',
      ...tally,
      cuts: proxy.stats.cuts - cutsBefore,
      connections: proxy.stats.connections,
      errors: ops.filter((o) => !o.acked).map((o) => `${o.kind}:${o.error}`),
    };
    console.log(JSON.stringify(summary));
    expect(problems).toEqual([]);
    expect(tally.lost).toBe(0);
    expect(tally.foundTwice).toBe(0);
    expect(tally.foundOnce).toBe(tally.acknowledged);
    expect(summary.cuts).toBeGreaterThan(0);
    // Enough got through for the counts to mean something (most do; a loaded machine fails more).
    expect(tally.acknowledged).toBeGreaterThan(tally.attempted / 4);
  }, 600_000);
});

/** Two replicas as processes, each with its worker, on the shared Neo4j; B reaches it through the proxy. */
describe('two service processes', () => {
  let fake: FakeOllama;
  let proxy: TcpProxy;
  let plain: Services;
  let a: ServiceProcess;
  let b: ServiceProcess;
  const namespace = uniqueNamespace('wire-procs');
  const extractions: Array<{ text: string; at: number; ms: number }> = [];
  const EXTRACT_MS = 200;

  beforeAll(async () => {
    fake = await startFakeOllama({ models: ['qwen3:4b'] });
    fake.respond((request) => {
      if (stageOf(request) !== 'extract') return { status: 500, error: 'only extraction is expected' };
      extractions.push({ text: memoryTextOf(request.prompt), at: Date.now(), ms: EXTRACT_MS });
      return { text: extraction([]), delayMs: EXTRACT_MS };
    });
    proxy = await startTcpProxy({ targetPort: boltPort(SHARED_URI), port: 47691 });
    plain = testServices();
    const env = {
      WORKER_ENABLED: 'true',
      WORKER_POLL_MS: '100',
      WORKER_NAMESPACES: namespace,
      DEFAULT_NAMESPACE: namespace,
      OLLAMA_HOST: fake.url,
      OLLAMA_MODEL: 'qwen3:4b',
      HINTS_ENABLED: 'false',
      // Upkeep (where present) stays off: the shared database holds other tests' namespaces.
      RETENTION_INTERVAL_MS: '0',
      EMBEDDING_TRACKER_ENABLED: 'false',
    };
    a = spawnReplica({ name: 'A', port: 48010, neo4jUri: SHARED_URI, neo4jPassword: SHARED_PASSWORD, env });
    b = spawnReplica({ name: 'B', port: 48011, neo4jUri: proxy.url, neo4jPassword: SHARED_PASSWORD, env });
    await Promise.all([a.waitReady(), b.waitReady()]);
  }, 300_000);

  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await cleanNamespace(plain, namespace);
    await plain?.executor.close();
    await proxy?.close();
    await fake?.close();
  }, 120_000);

  const REMEMBER = `mutation($input: RememberInput!) { remember(input: $input) { memory { id } } }`;
  const RECALL = `query($q: String!, $ns: String) { recall(query: $q, namespace: $ns, limit: 5) { items { memory { id } } } }`;

  it('process every job exactly once, one extraction per namespace at a time', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 8; i++) {
      const target = i % 2 === 0 ? a : b;
      const response = await target.post({ query: REMEMBER, variables: { input: { namespace, content: fact(200 + i, `job-${i}`) } } });
      expect(response.body.errors, JSON.stringify(response.body)).toBeUndefined();
      ids.push(response.body.data.remember.memory.id);
    }
    const JOBS = `MATCH (j:Job {namespace: $ns}) RETURN j.id AS id, j.status AS status, j.attempts AS attempts, j.leaseOwner AS owner`;
    let jobs: Array<{ id: string; status: string; attempts: number; owner: string }> = [];
    const deadline = Date.now() + 120_000;
    while (Date.now() < deadline) {
      jobs = await plain.executor.read('test.jobs', JOBS, { ns: namespace });
      if (jobs.length === ids.length && jobs.every((j) => j.status === 'completed')) break;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect(jobs.map((j) => j.status)).toEqual(ids.map(() => 'completed'));
    expect(jobs.every((j) => j.attempts === 1)).toBe(true);
    // Each memory's text reached the model once.
    expect(extractions).toHaveLength(ids.length);
    expect(new Set(extractions.map((e) => e.text)).size).toBe(ids.length);
    // Never two of this namespace's extractions in flight at once, whichever process leased them.
    const sorted = [...extractions].sort((x, y) => x.at - y.at);
    const overlaps = sorted.filter((e, i) => i > 0 && e.at < sorted[i - 1]!.at + sorted[i - 1]!.ms).length;
    expect(overlaps).toBe(0);
    console.log(
      JSON.stringify({
        test: 'two-process-workers',
        jobs: jobs.length,
        completed: jobs.filter((j) => j.status === 'completed').length,
        owners: new Set(jobs.map((j) => j.owner)).size,
        extractions: extractions.length,
        overlaps,
      }),
    );
  }, 180_000);

  it("a recall sent to B with the bookmark A's remember returned finds the memory, and the bookmark reaches the server", async () => {
    const written = await a.post({
      query: REMEMBER,
      variables: { input: { namespace, content: 'The release train for the Orion mobile app leaves every second Thursday.' } },
    });
    const token = written.headers.get(BOOKMARK_HEADER);
    expect(token).toBeTruthy();
    const id = written.body.data.remember.memory.id as string;
    const [bookmark] = decodeBookmarkToken(token!);

    const beginsBefore = proxy.begins.length;
    const recalled = await b.post(
      { query: RECALL, variables: { q: 'When does the Orion release train leave?', ns: namespace } },
      { [BOOKMARK_HEADER]: token! },
    );
    expect(recalled.body.errors, JSON.stringify(recalled.body)).toBeUndefined();
    expect(recalled.body.data.recall.items.map((i: { memory: { id: string } }) => i.memory.id)).toContain(id);
    // B's transactions began with A's bookmark (Bolt BEGIN carries the bookmarks the server waits for).
    const needle = packstreamString(bookmark!);
    expect(proxy.begins.slice(beginsBefore).some((begin) => begin.includes(needle))).toBe(true);
  }, 120_000);
});
