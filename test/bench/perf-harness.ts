/**
 * Shared plumbing of the speed benchmarks (remember.bench.ts, recall.bench.ts): their own
 * throwaway Neo4j, services with a timed embedder, per-query timing of the executor, machine
 * facts, statistics and output. Progress goes to stderr; stdout carries only the final figures.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, rmSync, statSync, writeFileSync, readFileSync, mkdirSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { destination, pino } from 'pino';
import { startNeo4j, stopNeo4j } from '../../scripts/neo4j-server.mjs';
import { closeServices, createServices, prepareServices, type Services } from '../../src/app.js';
import { loadConfig, type Config } from '../../src/config/index.js';
import type { Executor, TxRunner, TxWork } from '../../src/db/index.js';
import { LocalEmbedder } from '../../src/embedding/embedder.js';
import { type EmbedPurpose } from '../../src/embedding/model-profiles.js';

export const REPO = fileURLToPath(new URL('../../', import.meta.url));
export const MODEL_DIR = join(REPO, '.models');

/** The benchmarks' own Neo4j: never the dev (7687) or test (17687) instance. */
export const BENCH_NEO4J = {
  home: join(REPO, '.neo4j', 'bench'),
  boltPort: Number(process.env.BENCH_NEO4J_BOLT_PORT ?? 27687),
  httpPort: Number(process.env.BENCH_NEO4J_HTTP_PORT ?? 27474),
  password: 'mnemograph-bench',
  heapMb: 2048,
  pageCacheMb: 2048,
  /** A loaded machine starts Neo4j slowly (over 2 minutes at load 25 on 2 cores). */
  timeoutMs: Number(process.env.BENCH_NEO4J_START_TIMEOUT_MS ?? 600_000),
};

// ---------- output ----------

export function progress(message: string): void {
  process.stderr.write(`[bench] ${message}\n`);
}

const intFormat = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
export const int = (n: number): string => intFormat.format(n);
export const ms = (n: number | undefined): string =>
  n === undefined || Number.isNaN(n) ? '–' : n >= 100 ? n.toFixed(0) : n >= 10 ? n.toFixed(1) : n.toFixed(2);
export const pct = (n: number): string => `${(n * 100).toFixed(1)}%`;

/** A plain text table; numbers (and figures like "12.3 ms") right-aligned. */
export function table(headers: string[], rows: Array<Array<string | number>>): string {
  const cells = rows.map((r) => r.map((c) => (typeof c === 'number' ? ms(c) : c)));
  const widths = headers.map((h, i) => Math.max(h.length, ...cells.map((r) => (r[i] ?? '').length)));
  const numeric = headers.map((_, i) => cells.every((r) => /^[-–<≥$\d.,%\s×a-z/]*$/i.test(r[i] ?? '') && /\d|–/.test(r[i] ?? '')));
  const line = (r: string[]) =>
    r
      .map((c, i) => (numeric[i] ? c.padStart(widths[i]!) : c.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
  return [line(headers), widths.map((w) => '-'.repeat(w)).join('  '), ...cells.map(line)].join('\n');
}

/** Console output would break `--json` (stdout must hold one JSON object): route it to stderr. */
export function routeConsoleToStderr(): void {
  console.log = console.error;
  console.info = console.error;
}

// ---------- statistics ----------

export interface Summary {
  n: number;
  mean: number;
  p50: number;
  p95: number;
  p99: number;
  min: number;
  max: number;
}

/** Linear-interpolated percentile of sorted values (p in 0..100). */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const rank = (p / 100) * (sorted.length - 1);
  const lo = Math.floor(rank);
  const hi = Math.ceil(rank);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (rank - lo);
}

export function summarize(values: readonly number[]): Summary {
  const sorted = [...values].sort((a, b) => a - b);
  const round = (n: number) => Math.round(n * 100) / 100;
  return {
    n: sorted.length,
    mean: round(sorted.reduce((a, b) => a + b, 0) / Math.max(1, sorted.length)),
    p50: round(percentile(sorted, 50)),
    p95: round(percentile(sorted, 95)),
    p99: round(percentile(sorted, 99)),
    min: round(sorted[0] ?? NaN),
    max: round(sorted.at(-1) ?? NaN),
  };
}

// ---------- machine facts ----------

export interface MachineFacts {
  cores: number;
  cpu: string;
  memoryGiB: number;
  node: string;
  platform: string;
  neo4j: string;
  neo4jHeapMb: number | null;
  neo4jPageCacheMb: number | null;
  gitCommit: string;
  gitDirty: boolean;
  loadAverageAtStart: number[];
}

export function loadAverage(): number[] {
  return os.loadavg().map((l) => Math.round(l * 100) / 100);
}

export function uptimeLine(): string {
  try {
    return execFileSync('uptime', { encoding: 'utf8' }).trim();
  } catch {
    return `load average: ${loadAverage().join(', ')}`;
  }
}

export async function machineFacts(services: Services, db: BenchDb): Promise<MachineFacts> {
  const git = (...args: string[]) => {
    try {
      return execFileSync('git', args, { cwd: REPO, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    } catch {
      return '';
    }
  };
  let neo4j = 'unknown';
  try {
    const rows = await services.executor.read<{ name: string; versions: string[]; edition: string }>(
      'bench.version',
      'CALL dbms.components() YIELD name, versions, edition RETURN name, versions, edition',
    );
    neo4j = rows.map((r) => `${r.name} ${r.versions.join('/')} ${r.edition}`).join(', ');
  } catch {
    /* a server that hides dbms.components still benchmarks */
  }
  return {
    cores: os.cpus().length,
    cpu: os.cpus()[0]?.model.trim() ?? 'unknown',
    memoryGiB: Math.round(os.totalmem() / 2 ** 30),
    node: process.version,
    platform: `${os.platform()} ${os.release()}`,
    neo4j,
    neo4jHeapMb: db.external ? null : BENCH_NEO4J.heapMb,
    neo4jPageCacheMb: db.external ? null : BENCH_NEO4J.pageCacheMb,
    gitCommit: git('rev-parse', '--short', 'HEAD'),
    gitDirty: git('status', '--porcelain', '--', 'src', 'cypher').length > 0,
    loadAverageAtStart: loadAverage(),
  };
}

export function machineLines(m: MachineFacts): string {
  return [
    `machine: ${m.cores} cores (${m.cpu}), ${m.memoryGiB} GiB RAM, ${m.platform}`,
    `node ${m.node}; ${m.neo4j}${m.neo4jHeapMb ? ` (heap ${m.neo4jHeapMb} MB, page cache ${m.neo4jPageCacheMb} MB)` : ' (external)'}`,
    `git ${m.gitCommit}${m.gitDirty ? ' (src/ or cypher/ has uncommitted changes)' : ''}; load average at start ${m.loadAverageAtStart.join(', ')}`,
  ].join('\n');
}

// ---------- Neo4j ----------

export interface BenchDb {
  uri: string;
  password: string;
  external: boolean;
  /** The Neo4j JVM's process id (CPU figures); for an external server BENCH_NEO4J_PID, else null. */
  pid?: number | null;
  /** Bytes under the server's data folder (null for an external server). */
  storeBytes(): number | null;
  stop(): Promise<void>;
}

const OWNER_LOCK = join(BENCH_NEO4J.home, 'run', 'bench-owner.lock');

/**
 * BENCH_NEO4J_URI (+ BENCH_NEO4J_PASSWORD) → that server, untouched (the caller cleans its
 * namespaces). Otherwise the bench's own server: stopped, data deleted, started fresh. A lock
 * keeps two benchmarks from wiping each other's server.
 */
export async function startBenchDb(): Promise<BenchDb> {
  const external = process.env.BENCH_NEO4J_URI;
  if (external) {
    return {
      uri: external,
      password: process.env.BENCH_NEO4J_PASSWORD ?? BENCH_NEO4J.password,
      external: true,
      pid: process.env.BENCH_NEO4J_PID ? Number(process.env.BENCH_NEO4J_PID) : null,
      storeBytes: () => null,
      stop: async () => undefined,
    };
  }
  acquireOwnerLock();
  try {
    await stopNeo4j(BENCH_NEO4J);
    rmSync(join(BENCH_NEO4J.home, 'data'), { recursive: true, force: true });
    const running = await startNeo4j(BENCH_NEO4J);
    let stopped = false;
    return {
      uri: running.boltUrl,
      password: BENCH_NEO4J.password,
      external: false,
      pid: running.pid,
      storeBytes: () => folderBytes(join(BENCH_NEO4J.home, 'data', 'databases', 'neo4j')),
      stop: async () => {
        if (stopped) return;
        stopped = true;
        try {
          await stopNeo4j(BENCH_NEO4J);
        } finally {
          releaseOwnerLock();
        }
      },
    };
  } catch (error) {
    releaseOwnerLock();
    throw error;
  }
}

function acquireOwnerLock(): void {
  mkdirSync(join(BENCH_NEO4J.home, 'run'), { recursive: true });
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(OWNER_LOCK, `${process.pid}\n`, { flag: 'wx' });
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = Number(readFileSync(OWNER_LOCK, 'utf8').trim());
      if (holder && holder !== process.pid && isAlive(holder)) {
        throw new Error(
          `another benchmark (pid ${holder}) is using the bench Neo4j in ${BENCH_NEO4J.home}; wait for it or remove ${OWNER_LOCK}`,
        );
      }
      rmSync(OWNER_LOCK, { force: true }); // left behind by a crashed run
    }
  }
  throw new Error(`could not take ${OWNER_LOCK}`);
}

function releaseOwnerLock(): void {
  try {
    if (Number(readFileSync(OWNER_LOCK, 'utf8').trim()) === process.pid) rmSync(OWNER_LOCK, { force: true });
  } catch {
    /* already gone */
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function folderBytes(dir: string): number | null {
  if (!existsSync(dir)) return null;
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    total += entry.isDirectory() ? (folderBytes(path) ?? 0) : statSync(path).size;
  }
  return total;
}

/** Deletes a namespace (only needed on an external server, which is not wiped). */
export async function cleanNamespace(services: Services, namespace: string): Promise<void> {
  await services.executor.autoCommit(
    'bench.clean',
    `MATCH (n) WHERE n.namespace = $namespace
     CALL (n) { DETACH DELETE n } IN TRANSACTIONS OF 2000 ROWS`,
    { namespace },
  );
}

// ---------- services ----------

/** The service's embedder with the time spent in `embed()` added up (model calls, including queueing). */
export class TimedEmbedder extends LocalEmbedder {
  calls = 0;
  texts = 0;
  totalMs = 0;

  /** Awaited before each embedding (the A/B of bench:remember replays the old order through it). */
  gate: (() => Promise<void>) | undefined;

  /**
   * When set, texts embedded once are answered from memory (a store built from a pool of texts
   * embeds each text once; never set while recall is timed).
   */
  memo: Map<string, Float32Array> | undefined;

  override async embed(texts: readonly string[], purpose: EmbedPurpose = 'passage'): Promise<Float32Array[]> {
    await this.gate?.();
    const t0 = performance.now();
    try {
      if (!this.memo) return await super.embed(texts, purpose);
      const memo = this.memo;
      // A query and a stored text of the same words embed differently under a prefixed model.
      const key = (t: string) => `${purpose}\u0000${t}`;
      const missing = [...new Set(texts.filter((t) => !memo.has(key(t))))];
      if (missing.length > 0) {
        const vectors = await super.embed(missing, purpose);
        missing.forEach((t, i) => memo.set(key(t), vectors[i]!));
      }
      return texts.map((t) => memo.get(key(t))!);
    } finally {
      this.totalMs += performance.now() - t0;
      this.calls += 1;
      this.texts += texts.length;
    }
  }

  snapshot(): { calls: number; texts: number; totalMs: number } {
    return { calls: this.calls, texts: this.texts, totalMs: this.totalMs };
  }
}

export interface BenchServices {
  services: Services;
  config: Config;
  embedder: TimedEmbedder;
  ops: OpTimer;
  close(): Promise<void>;
}

/**
 * `createServices` as the server builds it — worker off, the provisioned model, the
 * environment's settings otherwise (so RERANK_ENABLED=false etc. can be compared) — with the
 * embedder timed and every transaction timed by operation. Logs go to stderr.
 */
export async function benchServices(db: BenchDb): Promise<BenchServices> {
  const config = loadConfig({
    ...process.env,
    NEO4J_PASSWORD: db.password,
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
    WORKER_ENABLED: 'false',
    EMBEDDING_MODEL_DIR: process.env.EMBEDDING_MODEL_DIR ?? MODEL_DIR,
  });
  const logger = pino({ name: 'mnemograph-bench', level: config.LOG_LEVEL }, destination(2));
  const embedder = new TimedEmbedder({
    modelName: config.EMBEDDING_MODEL,
    modelDir: config.EMBEDDING_MODEL_DIR,
    batchSize: config.EMBEDDING_BATCH_SIZE,
    quantized: config.EMBEDDING_QUANTIZED,
  });
  const services = createServices(config, logger, { neo4jUri: db.uri, embedder });
  const ops = instrumentExecutor(services.executor);
  embedder.gate = () => (ops.sequential ? ops.readsSettled() : Promise.resolve());
  await prepareServices(services);
  return {
    services,
    config,
    embedder,
    ops,
    close: async () => {
      await closeServices(services);
      await embedder.dispose();
    },
  };
}

// ---------- transaction timing ----------

export interface OpStats {
  count: number;
  totalMs: number;
  samples: number[];
}

export interface OpTimer {
  /** Per operation ("memories.by-dedup-keys", "remember", "recall.vector" …) and per statement of a write ("remember › chunks"). */
  stats: Map<string, OpStats>;
  reset(): void;
  /**
   * The write path as it was before its concurrency, for a same-run A/B: each statement of a
   * write transaction waits for the previous one's result (no pipelining), and — through the
   * embedder's gate — the model waits for the read transactions already under way (the exact-dedup read).
   */
  sequential: boolean;
  /** Resolves when the read transactions under way now have finished. */
  readsSettled(): Promise<void>;
}

/** Suffixes of the OpTimer keys that split a write transaction's own cost (see instrumentExecutor). */
export const TX_BEFORE_WORK = ' ⋯ before work';
export const TX_AFTER_WORK = ' ⋯ after work';
/** The work function itself: its statements, overlapping when they are pipelined. */
export const TX_WORK = ' ⋯ work';

/** Names the statements of the remember write transaction (src/db/queries/remember-write.ts). */
const STATEMENT_LABELS: Array<[RegExp, string]> = [
  [/MERGE \(mem:Memory \{dedupKey/, 'memory'],
  [/CREATE \(mem\)-\[:HAS_CHUNK\]/, 'chunks+vectors'],
  [/DUPLICATE_OF/, 'near-dup links'],
  [/MERGE \(e:Entity/, 'strong mentions'],
  [/MATCH \(e:Entity \{namespace: mem\.namespace, canonicalName: x\.canonicalName\}\)/, 'weak mentions'],
  [/HAS_ATTRIBUTE/, 'attributes'],
  [/CREATE \(job:Job/, 'jobs'],
  [/HistoryEvent/, 'history'],
  [/lastSeenAt = \$now, m\.accessCount/, 'touch duplicates'],
];

function statementLabel(cypher: string): string {
  for (const [re, label] of STATEMENT_LABELS) if (re.test(cypher)) return label;
  return cypher.replace(/\s+/g, ' ').trim().slice(0, 40);
}

/**
 * Wraps the executor's readTx/writeTx (read()/write() go through them) so every transaction is
 * timed from session open to close, and each statement of a write transaction on its own.
 * The bench patches its own instance only; src/ is untouched.
 */
export function instrumentExecutor(executor: Executor): OpTimer {
  const stats = new Map<string, OpStats>();
  const record = (key: string, elapsed: number) => {
    let s = stats.get(key);
    if (!s) stats.set(key, (s = { count: 0, totalMs: 0, samples: [] }));
    s.count += 1;
    s.totalMs += elapsed;
    s.samples.push(elapsed);
  };
  const timed = async <T>(key: string, work: () => Promise<T>): Promise<T> => {
    const t0 = performance.now();
    try {
      return await work();
    } finally {
      record(key, performance.now() - t0);
    }
  };
  const readTx = executor.readTx.bind(executor);
  const writeTx = executor.writeTx.bind(executor);
  const readsInFlight = new Set<Promise<unknown>>();
  const timer: OpTimer = {
    stats,
    reset: () => stats.clear(),
    sequential: false,
    readsSettled: async () => {
      await Promise.allSettled([...readsInFlight]);
    },
  };
  executor.readTx = <T>(operation: string, work: TxWork<T>) => {
    const p = timed(operation, () => readTx(operation, work));
    readsInFlight.add(p);
    const forget = () => readsInFlight.delete(p);
    p.then(forget, forget);
    return p;
  };
  executor.writeTx = async <T>(operation: string, work: TxWork<T>) => {
    // Split of the transaction's own cost: until the driver calls the work (session, connection),
    // and from the work's end to executeWrite's return (COMMIT round trip, session close).
    const t0 = performance.now();
    let workStarted: number | undefined;
    let workEnded: number | undefined;
    const result = await timed(operation, () =>
      writeTx(operation, async (tx) => {
        workStarted ??= performance.now();
        let previous: Promise<unknown> = Promise.resolve();
        const runner = {
          run: (cypher: string, params?: Record<string, unknown>) => {
            const go = () => timed(`${operation} › ${statementLabel(cypher)}`, () => tx.run(cypher, params));
            if (!timer.sequential) return go();
            const p = previous.then(go, go);
            previous = p.catch(() => undefined);
            return p;
          },
        } as TxRunner;
        try {
          return await work(runner);
        } finally {
          workEnded = performance.now();
        }
      }),
    );
    if (workStarted !== undefined && workEnded !== undefined) {
      record(`${operation}${TX_BEFORE_WORK}`, workStarted - t0);
      record(`${operation}${TX_WORK}`, workEnded - workStarted);
      record(`${operation}${TX_AFTER_WORK}`, performance.now() - workEnded);
    }
    return result;
  };
  return timer;
}

// ---------- lifecycle ----------

/**
 * Runs the benchmark body with the Neo4j server and services, and always cleans up: services
 * closed and our Neo4j stopped on success, failure, Ctrl-C or SIGTERM.
 */
export async function runBench(body: (db: BenchDb) => Promise<void>): Promise<void> {
  let db: BenchDb | undefined;
  const cleanup = async () => {
    const d = db;
    db = undefined;
    await d?.stop();
  };
  const onSignal = (signal: NodeJS.Signals) => {
    progress(`${signal}: stopping the bench Neo4j…`);
    cleanup().finally(() => process.exit(130));
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    db = await startBenchDb();
    await body(db);
  } catch (error) {
    process.stderr.write(`[bench] failed: ${(error as Error).stack ?? String(error)}\n`);
    process.exitCode = 1;
  } finally {
    await cleanup().catch((error: Error) => progress(`could not stop Neo4j: ${error.message}`));
  }
}

/** Rate-limited progress lines ("ingested 20,000 / 100,000 (1,850/s)"). */
export function progressTicker(intervalMs = 3_000): (message: () => string, force?: boolean) => void {
  let last = 0;
  return (message, force = false) => {
    const now = performance.now();
    if (force || now - last >= intervalMs) {
      last = now;
      progress(message());
    }
  };
}

export function parseSizes(text: string | undefined, fallback: number[]): number[] {
  if (!text) return fallback;
  const sizes = text.split(',').map((s) => Number(s.trim().replace(/_/g, '').replace(/k$/i, '000')));
  if (sizes.some((n) => !Number.isInteger(n) || n <= 0))
    throw new Error(`--sizes takes positive integers, e.g. 1000,10000 (got "${text}")`);
  return sizes;
}

export function positiveInt(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new Error(`--${name} takes a positive integer (got "${value}")`);
  return n;
}
