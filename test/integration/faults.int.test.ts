/**
 * Faults, against a Neo4j of this file's own (Bolt 57697, HTTP 57484, .neo4j/fault-test), which
 * the first test stops and starts again under load. (Ollama down/500/garbage/slow are in
 * worker-failures.int.test.ts; a model that fails to load in startup-model.int.test.ts; two
 * service processes on one Neo4j in the cluster tests.)
 */
import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNeo4j, stopNeo4j } from '../../scripts/neo4j-server.mjs';
import { closeServices, createServices, prepareServices, type Services } from '../../src/app.js';
import { loadConfig } from '../../src/config/index.js';
import { createLogger } from '../../src/logger.js';
import { startServer, type RunningServer } from '../../src/server.js';
import { extraction, query, scriptStages, stageOf } from '../support/deep-path.js';
import { startFakeOllama, type FakeOllama } from '../support/fake-ollama.js';
import { runLoad, verifyAcks, type RequestEvent } from '../support/load-driver.js';
import { forkService, type ServiceChild } from '../support/processes.js';
import { cleanNamespace, testEmbedder, uniqueNamespace } from '../support/services.js';

const FAULT_NEO4J = {
  home: join(fileURLToPath(new URL('../../.neo4j/', import.meta.url)), 'fault-test'),
  boltPort: 57697,
  httpPort: 57484,
  password: 'mnemograph-fault-test',
  heapMb: 512,
  pageCacheMb: 128,
  quiet: true,
  // A JVM start takes minutes on a 2-core machine shared with other work.
  timeoutMs: 600_000,
};
const FAULT_URI = `bolt://127.0.0.1:${FAULT_NEO4J.boltPort}`;
const MODEL_DIR = fileURLToPath(new URL('../../.models', import.meta.url));

async function waitUntil(what: string, condition: () => boolean | Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for: ${what}`);
}

async function readyStatus(origin: string): Promise<number> {
  const response = await fetch(`${origin}/health/ready`, { signal: AbortSignal.timeout(90_000) });
  return response.status;
}

let services: Services;
let server: RunningServer;
let origin = '';

beforeAll(async () => {
  await stopNeo4j(FAULT_NEO4J);
  rmSync(join(FAULT_NEO4J.home, 'data'), { recursive: true, force: true });
  await startNeo4j(FAULT_NEO4J);
  const config = loadConfig({ NEO4J_PASSWORD: FAULT_NEO4J.password, LOG_LEVEL: 'silent', WORKER_ENABLED: 'false' });
  services = createServices(config, createLogger(config.LOG_LEVEL), { neo4jUri: FAULT_URI, embedder: testEmbedder() });
  await prepareServices(services);
  server = await startServer(services, { host: '127.0.0.1', port: 0 });
  origin = new URL(server.url).origin;
}, 900_000);

afterAll(async () => {
  await server?.close();
  if (services) await closeServices(services);
  await stopNeo4j(FAULT_NEO4J);
}, 180_000);

describe('Neo4j stopped mid-load and started again', () => {
  it('writes fail with UNAVAILABLE while it is down, the service recovers without a restart, every acknowledged write is stored once', async () => {
    const events: RequestEvent[] = [];
    const controller = new AbortController();
    const runStart = performance.now();
    const since = () => performance.now() - runStart;
    const load = runLoad({
      url: server.url,
      clients: 3,
      seconds: 900,
      runId: `fault-${randomUUID().slice(0, 8)}`,
      batchSize: 4,
      longItemShare: 0,
      mix: { remember: 4, rememberBatch: 1, recall: 2, search: 1, entity: 0 },
      requestTimeoutMs: 120_000,
      signal: controller.signal,
      onRequest: (event) => events.push(event),
    });
    const isWrite = (e: RequestEvent) => e.op === 'remember' || e.op === 'rememberBatch';
    try {
      await waitUntil('writes acknowledged before the stop', () => events.filter((e) => isWrite(e) && e.ok).length >= 3, 300_000);
      const stopping = since();
      await stopNeo4j(FAULT_NEO4J);
      const down = since();
      await waitUntil(
        'writes sent while Neo4j is down to fail',
        () => events.filter((e) => isWrite(e) && !e.ok && e.at >= down).length >= 3,
        300_000,
      );
      expect(await readyStatus(origin)).toBe(503);

      const starting = since();
      await startNeo4j(FAULT_NEO4J);
      const up = since();
      await waitUntil('/health/ready to answer 200 again', async () => (await readyStatus(origin)) === 200, 300_000);
      await waitUntil(
        'writes acknowledged after the restart',
        () => events.filter((e) => isWrite(e) && e.ok && e.at >= up).length >= 3,
        300_000,
      );
      await waitUntil('a recall to succeed after the restart', () => events.some((e) => e.op === 'recall' && e.ok && e.at >= up), 300_000);

      controller.abort();
      const result = await load;

      // While Neo4j is down, every request fails with the deliberate UNAVAILABLE. Around it (a cold
      // server starting, a machine shared with other work) a query may also pass its transaction
      // timeout: TIMEOUT. Nothing else: no INTERNAL, no 5xx, no request hanging to the client's timeout.
      const failures = events.filter((e) => !e.ok);
      const timeline = () =>
        JSON.stringify({
          stopping,
          down,
          starting,
          up,
          failures: failures.map((e) => [e.op, Math.round(e.at), Math.round(e.latencyMs), e.codes.join(',')]),
        });
      const whileDown = failures.filter((e) => e.at >= down && e.at + e.latencyMs <= starting);
      expect(whileDown.length, timeline()).toBeGreaterThanOrEqual(3);
      expect([...new Set(whileDown.flatMap((e) => e.codes))], timeline()).toEqual(['UNAVAILABLE']);
      expect(
        [...new Set(failures.flatMap((e) => e.codes))].filter((code) => code !== 'UNAVAILABLE' && code !== 'TIMEOUT'),
        timeline(),
      ).toEqual([]);
      expect(result.serverErrors).toBe(0);
      expect(Math.max(...failures.map((e) => e.latencyMs)), timeline()).toBeLessThan(90_000);

      const before = result.acks.filter((a) => a.at < stopping).length;
      const after = result.acks.filter((a) => a.at >= up).length;
      expect(before).toBeGreaterThan(0);
      expect(after).toBeGreaterThan(0);
      const verification = await verifyAcks(services.executor, result);
      expect(verification.lost).toEqual([]);
      expect(verification.duplicated).toEqual([]);
      expect(verification.withoutChunks).toBe(0);
      for (const namespace of result.namespaces) await cleanNamespace(services, namespace);
    } finally {
      controller.abort();
      await load.catch(() => undefined);
    }
  }, 1_200_000);
});

describe('the worker killed with SIGKILL mid-job', () => {
  let fake: FakeOllama | undefined;
  const children: ServiceChild[] = [];
  let namespace = '';

  afterAll(async () => {
    for (const child of children) await child.stop('SIGKILL');
    await fake?.close();
    if (namespace) await cleanNamespace(services, namespace);
  });

  const workerEnv = (extra: Record<string, string>) => ({
    NEO4J_URI: FAULT_URI,
    NEO4J_PASSWORD: FAULT_NEO4J.password,
    OLLAMA_HOST: fake!.url,
    OLLAMA_MODEL: 'qwen3:4b',
    SERVICE_PROCESS_HTTP: 'false',
    SERVICE_PROCESS_WORKER_NAMESPACES: namespace,
    WORKER_POLL_MS: '100',
    WORKER_RETRY_BASE_MS: '0',
    EXTRACTION_TIMEOUT_MS: '120000',
    EMBEDDING_MODEL_DIR: MODEL_DIR,
    LOG_LEVEL: 'info',
    ...extra,
  });

  it('the job is re-leased after its lease expires and completed once by another worker', async () => {
    namespace = uniqueNamespace('fault-kill');
    let slow = true;
    fake = await startFakeOllama({ models: ['qwen3:4b'] });
    const facts = extraction(
      [
        ['The billing service uses Redis for sessions.', 'semantic', 0.9],
        ['The payments team deploys on Tuesdays.', 'procedural', 0.9],
      ],
      [['billing service', 'uses', 'Redis']],
    );
    // The first worker's extraction call hangs (the job stays in flight); later calls answer at once.
    scriptStages(fake, {
      extract: () => (slow ? { text: facts, delayMs: 600_000 } : facts),
      decide: () => JSON.stringify({ action: 'ADD', confidence: 0.9, reason: 'new' }),
    });
    const { memory } = await services.remember.remember({
      namespace,
      content: 'Priya moved the billing service sessions from Memcached to Redis. The payments team deploys on Tuesdays.',
    });
    const jobOf = async () =>
      (
        await query<{
          id: string;
          status: string;
          attempts: number;
          leaseOwner: string | null;
          error: string | null;
          result: string | null;
        }>(
          services,
          `MATCH (j:Job {kind: 'extract'})-[:FOR]->(:Memory {id: $id}) RETURN j.id AS id, j.status AS status, j.attempts AS attempts, j.leaseOwner AS leaseOwner, j.error AS error, j.result AS result`,
          { id: memory.id },
        )
      )[0]!;

    // Worker A (default lease timeout of 5 minutes) leases the job and waits on the model.
    const a = await forkService(workerEnv({}));
    children.push(a);
    await waitUntil('worker A to call the model', () => fake!.requests.some((r) => stageOf(r) === 'extract'), 120_000);
    const leased = await jobOf();
    expect(leased).toMatchObject({ status: 'leased', attempts: 1, leaseOwner: a.workerId });

    await a.stop('SIGKILL');
    expect(a.child.signalCode).toBe('SIGKILL');
    await waitUntil('the fake to see the killed worker go away', () => fake!.requests[0]!.aborted, 30_000);
    // Nobody finished or released it: the lease is simply left behind.
    expect(await jobOf()).toMatchObject({ status: 'leased', attempts: 1, leaseOwner: a.workerId });

    // Worker B reaps leases older than 10 s (WORKER_LEASE_TIMEOUT_MS) at start: wait until this
    // one is that old by the database's clock, so B's first reap releases it.
    await waitUntil(
      'the lease to be older than 10 s',
      async () =>
        (
          await query<{ stale: boolean }>(
            services,
            `MATCH (j:Job {id: $id}) RETURN datetime(j.leasedAt) < datetime.realtime() - duration({seconds: 11}) AS stale`,
            { id: leased.id },
          )
        )[0]!.stale,
      60_000,
    );
    slow = false;
    const b = await forkService(workerEnv({ WORKER_LEASE_TIMEOUT_MS: '10000' }));
    children.push(b);
    await waitUntil('worker B to complete the job', async () => (await jobOf()).status === 'completed', 180_000);

    const done = await jobOf();
    expect(done).toMatchObject({ status: 'completed', attempts: 2, leaseOwner: b.workerId });
    expect(JSON.parse(done.result!)).toMatchObject({ facts: 2, outcomes: { created: 2 } });
    expect(b.output()).toContain('released stale job leases');
    // One set of derived facts, one extraction summary: the killed attempt left nothing behind.
    const derived = await query<{ content: string }>(
      services,
      `MATCH (f:Memory)-[:EXTRACTED_FROM]->(:Memory {id: $id}) WHERE f.deletedAt IS NULL RETURN f.content AS content ORDER BY content`,
      { id: memory.id },
    );
    expect(derived.map((d) => d.content)).toEqual([
      'The billing service uses Redis for sessions.',
      'The payments team deploys on Tuesdays.',
    ]);
    const summaries = await query<{ n: number }>(
      services,
      `MATCH (h:HistoryEvent {event: 'pipeline.extraction'})-[:ABOUT]->(:Memory {id: $id}) RETURN count(h) AS n`,
      { id: memory.id },
    );
    expect(summaries[0]!.n).toBe(1);
    expect(fake.requests.filter((r) => stageOf(r) === 'extract')).toHaveLength(2);
  }, 600_000);
});
