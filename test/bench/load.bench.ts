/**
 * `npm run bench:load [-- --seconds 60 --clients 8 --json]`: the real service in a process of
 * its own (src/app.ts + src/server.ts on loopback), driven over HTTP by concurrent clients with
 * a mixed workload (test/support/load-driver.ts), then every acknowledged write checked in
 * Neo4j: present exactly once. Prints throughput, p50/p95/p99 per operation, errors by code,
 * the service's event-loop delay and the machine load.
 *
 * Its own Neo4j (.neo4j/load-bench, Bolt 57687, HTTP 57474, wiped at start; the ports from
 * LOAD_BENCH_NEO4J_BOLT_PORT / LOAD_BENCH_NEO4J_HTTP_PORT), or BENCH_NEO4J_URI (+ BENCH_NEO4J_PASSWORD),
 * whose run namespaces are removed afterwards.
 */
import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { pino } from 'pino';
import { startNeo4j, stopNeo4j } from '../../scripts/neo4j-server.mjs';
import type { Services } from '../../src/app.js';
import { createDriver, Executor } from '../../src/db/index.js';
import { OPERATIONS, runLoad, verifyAcks, type LoadResult, type Verification } from '../support/load-driver.js';
import { forkService, spawnProcess, type EventLoopDelay, type ServiceChild } from '../support/processes.js';
import {
  loadAverage,
  machineFacts,
  machineLines,
  MODEL_DIR,
  positiveInt,
  progress,
  REPO,
  routeConsoleToStderr,
  summarize,
  table,
  uptimeLine,
  type BenchDb,
  type Summary,
} from './perf-harness.js';

const LOAD_NEO4J = {
  home: join(REPO, '.neo4j', 'load-bench'),
  boltPort: Number(process.env.LOAD_BENCH_NEO4J_BOLT_PORT ?? 57687),
  httpPort: Number(process.env.LOAD_BENCH_NEO4J_HTTP_PORT ?? 57474),
  password: 'mnemograph-load-bench',
  heapMb: 1024,
  pageCacheMb: 512,
  // A JVM start takes minutes on a 2-core machine shared with other work.
  timeoutMs: 600_000,
};

const TARGETS = { recallP95Ms: 250, eventLoopP99Ms: 50 };

// A process that does nothing but measure its own event-loop delay, as the service process does:
// on a machine shared with other work, how late a timer fires with no work of its own at all.
const IDLE_REFERENCE = `const h = require('node:perf_hooks').monitorEventLoopDelay({ resolution: 10 }); h.enable();
const late = (ns) => Math.max(0, Math.round((ns / 1e6 - 10) * 100) / 100);
process.on('message', () => { process.send({ p50: late(h.percentile(50)), p99: late(h.percentile(99)), max: late(h.max), mean: late(h.mean), samples: h.count }, () => process.exit(0)); });`;

function startIdleReference(): () => Promise<EventLoopDelay> {
  const { child } = spawnProcess({ name: 'idle reference', args: ['-e', IDLE_REFERENCE], ipc: true });
  return () =>
    new Promise((resolve) => {
      child.once('message', (delay) => resolve(delay as EventLoopDelay));
      child.send('report');
    });
}

const { values: args } = parseArgs({
  options: {
    seconds: { type: 'string' },
    clients: { type: 'string' },
    warmup: { type: 'string' },
    batch: { type: 'string' },
    json: { type: 'boolean', default: false },
  },
});

interface Report {
  seconds: number;
  clients: number;
  machine: Awaited<ReturnType<typeof machineFacts>>;
  throughput: { requestsPerSecond: number; writesPerSecond: number };
  operations: Record<string, Summary & { requests: number; ok: number; failed: number; perSecond: number }>;
  errorsByCode: Record<string, number>;
  serverErrors: number;
  writes: {
    attempted: number;
    acknowledged: number;
    lost: number;
    duplicated: number;
    unacknowledgedStored: number;
    withoutChunks: number;
    storedMemories: number;
  };
  eventLoopDelayMs: EventLoopDelay & { idleReference: EventLoopDelay };
  loadAverage: { start: number[]; duringMean1m: number; end: number[]; uptime: string };
  targets: Record<string, { target: string; value: number; pass: boolean }>;
}

async function main(): Promise<void> {
  const seconds = positiveInt('seconds', args.seconds, 60);
  const clients = positiveInt('clients', args.clients, 8);
  const warmup = args.warmup === '0' ? 0 : positiveInt('warmup', args.warmup, 5);
  const batchSize = positiveInt('batch', args.batch, 8);
  if (args.json) routeConsoleToStderr();

  const external = process.env.BENCH_NEO4J_URI;
  let stopDb: (() => Promise<void>) | null = null;
  let service: ServiceChild | null = null;
  const cleanup = async () => {
    await service?.stop().catch(() => undefined);
    service = null;
    const stop = stopDb;
    stopDb = null;
    await stop?.();
  };
  const onSignal = (signal: string) => {
    progress(`${signal}: stopping the service and the load-bench Neo4j…`);
    void cleanup().finally(() => process.exit(130));
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);

  try {
    let uri: string;
    let password: string;
    if (external) {
      uri = external;
      password = process.env.BENCH_NEO4J_PASSWORD ?? LOAD_NEO4J.password;
    } else {
      progress(`starting the load-bench Neo4j (${LOAD_NEO4J.home}, Bolt ${LOAD_NEO4J.boltPort}, fresh data)…`);
      await stopNeo4j(LOAD_NEO4J);
      rmSync(join(LOAD_NEO4J.home, 'data'), { recursive: true, force: true });
      const running = await startNeo4j(LOAD_NEO4J);
      stopDb = () => stopNeo4j(LOAD_NEO4J);
      uri = running.boltUrl;
      password = LOAD_NEO4J.password;
    }

    progress('starting the service process (migrations, model)…');
    service = await forkService({
      NEO4J_URI: uri,
      NEO4J_PASSWORD: password,
      HOST: '127.0.0.1',
      PORT: '0',
      WORKER_ENABLED: 'false',
      LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
      EMBEDDING_MODEL_DIR: process.env.EMBEDDING_MODEL_DIR ?? MODEL_DIR,
    });
    const url = service.url!;
    const executor = new Executor(createDriver({ uri, user: 'neo4j', password, database: 'neo4j' }), 'neo4j', pino({ level: 'silent' }));
    const db: BenchDb = { uri, password, external: Boolean(external), storeBytes: () => null, stop: async () => undefined };
    const machine = await machineFacts({ executor } as unknown as Services, db);
    if (!external) Object.assign(machine, { neo4jHeapMb: LOAD_NEO4J.heapMb, neo4jPageCacheMb: LOAD_NEO4J.pageCacheMb });
    progress(machineLines(machine));

    const runId = `load-${randomUUID().slice(0, 8)}`;
    const results: LoadResult[] = [];
    if (warmup > 0) {
      progress(`warm-up: ${warmup} s of writes so that reads find something`);
      results.push(
        await runLoad({
          url,
          clients,
          seconds: warmup,
          runId,
          phase: 'warmup',
          seed: 2,
          batchSize,
          mix: { remember: 1, rememberBatch: 1, recall: 0, search: 0, entity: 0 },
          longItemShare: 0,
        }),
      );
    }

    progress(`load: ${clients} clients for ${seconds} s against ${url}`);
    await service.eventLoopDelay({ reset: true });
    const idleReference = startIdleReference();
    const loadSamples: number[] = [];
    const sampler = setInterval(() => loadSamples.push(loadAverage()[0]!), 5_000);
    const loadStart = loadAverage();
    let last = 0;
    const main = await runLoad({
      url,
      clients,
      seconds,
      runId,
      seed: 1,
      batchSize,
      onRequest: (event) => {
        if (event.at - last < 10_000) return;
        last = event.at;
        progress(
          `${Math.round(event.at / 1000)} s: ${event.op} ${event.ok ? 'ok' : event.codes.join(',')} in ${Math.round(event.latencyMs)} ms`,
        );
      },
    });
    clearInterval(sampler);
    const eld = { ...(await service.eventLoopDelay()), idleReference: await idleReference() };
    const loadEnd = loadAverage();
    results.push(main);

    progress('verifying every acknowledged write in Neo4j…');
    const verification = await verifyAcks(executor, { acks: results.flatMap((r) => r.acks), namespaces: main.namespaces });
    const attempted = results.reduce((n, r) => n + r.writesAttempted, 0);
    const report = buildReport(main, verification, eld, machine, { seconds, clients, loadStart, loadEnd, loadSamples, attempted });
    process.stdout.write(args.json ? `${JSON.stringify(report, null, 2)}\n` : `${render(report)}\n`);
    if (verification.lost.length > 0 || verification.duplicated.length > 0 || main.serverErrors > 0) process.exitCode = 1;

    if (external) {
      for (const namespace of main.namespaces) {
        await executor.autoCommit(
          'bench.clean',
          'MATCH (n) WHERE n.namespace = $namespace CALL (n) { DETACH DELETE n } IN TRANSACTIONS OF 2000 ROWS',
          { namespace },
        );
      }
    }
    await executor.close();
  } catch (error) {
    process.stderr.write(`[bench] failed: ${(error as Error).stack ?? String(error)}\n`);
    if (service) process.stderr.write(`[bench] service output (tail):\n${service.output().slice(-3000)}\n`);
    process.exitCode = 1;
  } finally {
    await cleanup().catch((error: Error) => progress(`cleanup failed: ${error.message}`));
  }
}

function buildReport(
  run: LoadResult,
  v: Verification,
  eld: Report['eventLoopDelayMs'],
  machine: Report['machine'],
  o: { seconds: number; clients: number; loadStart: number[]; loadEnd: number[]; loadSamples: number[]; attempted: number },
): Report {
  const secs = run.durationMs / 1000;
  const operations: Report['operations'] = {};
  for (const op of OPERATIONS) {
    const s = run.byOp[op];
    operations[op] = { ...summarize(s.latencies), requests: s.requests, ok: s.ok, failed: s.failed, perSecond: round(s.ok / secs) };
  }
  const requests = OPERATIONS.reduce((n, op) => n + run.byOp[op].requests, 0);
  const recallP95 = operations.recall!.p95;
  const samples = o.loadSamples.length > 0 ? o.loadSamples : [o.loadEnd[0]!];
  return {
    seconds: round(secs),
    clients: o.clients,
    machine,
    throughput: { requestsPerSecond: round(requests / secs), writesPerSecond: round(run.acks.length / secs) },
    operations,
    errorsByCode: run.errorsByCode,
    serverErrors: run.serverErrors,
    writes: {
      attempted: o.attempted,
      acknowledged: v.acknowledged,
      lost: v.lost.length,
      duplicated: v.duplicated.length,
      unacknowledgedStored: v.unacknowledgedStored,
      withoutChunks: v.withoutChunks,
      storedMemories: v.storedMemories,
    },
    eventLoopDelayMs: eld,
    loadAverage: {
      start: o.loadStart,
      duringMean1m: round(samples.reduce((a, b) => a + b, 0) / samples.length),
      end: o.loadEnd,
      uptime: uptimeLine(),
    },
    targets: {
      lost: { target: '0', value: v.lost.length, pass: v.lost.length === 0 },
      duplicated: { target: '0', value: v.duplicated.length, pass: v.duplicated.length === 0 },
      serverErrors: { target: '0 (5xx/INTERNAL besides UNAVAILABLE)', value: run.serverErrors, pass: run.serverErrors === 0 },
      recallP95Ms: { target: `≤ ${TARGETS.recallP95Ms} ms`, value: recallP95, pass: recallP95 <= TARGETS.recallP95Ms },
      eventLoopP99Ms: { target: `≤ ${TARGETS.eventLoopP99Ms} ms`, value: eld.p99, pass: eld.p99 <= TARGETS.eventLoopP99Ms },
    },
  };
}

function render(r: Report): string {
  const w = r.writes;
  return [
    `bench:load — ${r.clients} clients, ${r.seconds} s, mixed workload over HTTP (loopback)`,
    machineLines(r.machine),
    '',
    table(
      ['operation', 'requests', 'ok', 'failed', 'ok/s', 'p50 ms', 'p95 ms', 'p99 ms', 'max ms'],
      OPERATIONS.map((op) => {
        const s = r.operations[op]!;
        return [op, String(s.requests), String(s.ok), String(s.failed), s.perSecond.toFixed(1), s.p50, s.p95, s.p99, s.max];
      }),
    ),
    '',
    `throughput: ${r.throughput.requestsPerSecond} requests/s, ${r.throughput.writesPerSecond} acknowledged writes/s`,
    `writes (warm-up included): ${w.attempted} sent, ${w.acknowledged} acknowledged; lost ${w.lost}, duplicated ${w.duplicated}; ${w.unacknowledgedStored} stored without acknowledgement; ${w.withoutChunks} without chunks; ${w.storedMemories} memories in the run's namespaces`,
    `errors by code: ${
      Object.keys(r.errorsByCode).length === 0
        ? 'none'
        : Object.entries(r.errorsByCode)
            .map(([code, n]) => `${code} ${n}`)
            .join(', ')
    }; server errors (5xx/INTERNAL besides UNAVAILABLE): ${r.serverErrors}`,
    `event-loop delay of the service process (10 ms sampling): p50 ${r.eventLoopDelayMs.p50} ms, p99 ${r.eventLoopDelayMs.p99} ms, max ${r.eventLoopDelayMs.max} ms (${r.eventLoopDelayMs.samples} samples); an idle Node process beside it: p99 ${r.eventLoopDelayMs.idleReference.p99} ms, max ${r.eventLoopDelayMs.idleReference.max} ms`,
    `machine load: 1/5/15-min averages ${r.loadAverage.start.join(', ')} at start, ${r.loadAverage.end.join(', ')} at end, 1-min mean during ${r.loadAverage.duringMean1m}; ${r.loadAverage.uptime}`,
    '',
    'targets:',
    ...Object.entries(r.targets).map(([name, t]) => `  ${t.pass ? 'PASS' : 'FAIL'}  ${name}: ${t.value} (target ${t.target})`),
  ].join('\n');
}

const round = (n: number) => Math.round(n * 100) / 100;

void main();
