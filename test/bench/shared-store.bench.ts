/**
 * A shared store: many tenants in one Neo4j, as a hosted memory service holds them. Builds
 * `--small` namespaces of `--small-size` memories and `--large` namespaces of `--large-size`
 * (default 50 × 1,000 + 5 × 10,000 = 100,000), written round-robin so every tenant grows with the
 * store, from the dev sets' real conversation turns; then measures, per namespace class:
 *   - ingest rate against store size (rememberBatch; each distinct text embedded once, so the
 *     rate is the store-side cost — the model's share is printed beside it);
 *   - real write probes at the start and the end (fresh texts, model in the loop): rememberBatch
 *     rate and its ratio to the model alone, single `remember` p50/p95;
 *   - recall p50/p95 sequentially for a small and a large namespace, recall@10 on the questions
 *     whose evidence the namespace holds, the vector plan taken, stage medians;
 *   - recalls/s with `--clients` concurrent clients over both classes.
 *
 *   npm run bench:shared-store -- <locomo dir> <longmemeval dir>             # build + measure
 *   npm run bench:shared-store -- <dirs> --reuse [--probes]                   # measure (or finish building) a kept store
 *   npm run bench:shared-store -- <dirs> [--reuse] --first-recalls            # a restart's first 20 recalls and remembers against the next 20
 *   npm run -s bench:shared-store -- <dirs> --json                            # one JSON object on stdout
 *   flags: --small 50 --small-size 1000 --large 5 --large-size 10000 --queries 60 --clients 8
 *          --concurrent 400 --probe 200 --batch 100
 *
 * Starts its own Neo4j (see perf-harness.ts) unless BENCH_NEO4J_URI is set; `--reuse` needs a
 * server that keeps its data (BENCH_NEO4J_URI).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import type { RememberInput } from '../../src/write/validate-input.js';
import { loadDataset, type Conversation, type Dataset } from './locomo-data.js';
import { MemoryCorpus } from './perf-corpus.js';
import {
  benchServices,
  int,
  loadAverage,
  machineFacts,
  machineLines,
  positiveInt,
  progress,
  progressTicker,
  routeConsoleToStderr,
  runBench,
  summarize,
  table,
  uptimeLine,
  type BenchDb,
  type BenchServices,
  type Summary,
} from './perf-harness.js';

const { values: args, positionals } = parseArgs({
  options: {
    small: { type: 'string' },
    'small-size': { type: 'string' },
    large: { type: 'string' },
    'large-size': { type: 'string' },
    queries: { type: 'string' },
    clients: { type: 'string' },
    concurrent: { type: 'string' },
    probe: { type: 'string' },
    batch: { type: 'string' },
    reuse: { type: 'boolean', default: false },
    'first-recalls': { type: 'boolean', default: false },
    probes: { type: 'boolean', default: false },
    json: { type: 'boolean', default: false },
  },
  allowPositionals: true,
  strict: true,
});
if (positionals.length === 0) throw new Error('usage: npm run bench:shared-store -- <dataset dir> [<dataset dir> …] [flags]');
const opts = {
  small: positiveInt('small', args.small, 50),
  smallSize: positiveInt('small-size', args['small-size'], 1_000),
  large: positiveInt('large', args.large, 5),
  largeSize: positiveInt('large-size', args['large-size'], 10_000),
  queries: positiveInt('queries', args.queries, 60),
  clients: positiveInt('clients', args.clients, 8),
  concurrent: positiveInt('concurrent', args.concurrent, 400),
  probe: positiveInt('probe', args.probe, 200),
  batch: positiveInt('batch', args.batch, 100),
  reuse: args.reuse ?? false,
  firstRecalls: args['first-recalls'] ?? false,
  /** With --reuse: also run the write probes against the store as it is. */
  probes: args.probes ?? false,
  json: args.json ?? false,
};
if (opts.json) routeConsoleToStderr();

// ---------- the store's layout, from the dev sets ----------

interface PoolTurn {
  input: Omit<RememberInput, 'namespace'>;
  /** `<dataset>:<conversation>:<dia_id>`: evidence is matched on this, whichever variant holds it. */
  key: string;
}

interface Question {
  question: string;
  asOf: string | null;
  evidence: string[];
}

interface Tenant {
  namespace: string;
  kind: 'small' | 'large';
  turns: PoolTurn[];
  questions: Question[];
}

/**
 * Every turn of every conversation, twice: as spoken ("Caroline: …") and without the speaker,
 * so a large tenant holds ten thousand distinct texts drawn from real conversations.
 */
function turnPool(datasets: Dataset[]): { pool: PoolTurn[]; conversations: Array<{ dataset: string; conversation: Conversation }> } {
  const conversations = datasets.flatMap((d) => d.conversations.map((conversation) => ({ dataset: d.name, conversation })));
  const pool: PoolTurn[] = [];
  for (const variant of [0, 1]) {
    for (const { dataset, conversation } of conversations) {
      for (const t of conversation.turns) {
        const content = variant === 0 ? t.content : t.content.replace(/^[^:\n]{1,40}:\s*/, '');
        pool.push({
          key: `${dataset}:${conversation.id}:${t.externalId}`,
          input: {
            content,
            externalId: `${dataset}:${conversation.id}:${t.externalId}:v${variant}`,
            sessionId: t.sessionId,
            ...(t.occurredAt ? { occurredAt: t.occurredAt } : {}),
          },
        });
      }
    }
  }
  return { pool, conversations };
}

function layout(datasets: Dataset[]): Tenant[] {
  const { pool, conversations } = turnPool(datasets);
  const starts: number[] = [];
  let offset = 0;
  for (const { conversation } of conversations) {
    starts.push(offset);
    offset += conversation.turns.length;
  }
  const half = offset; // pool = two variants of `half` turns
  const tenant = (namespace: string, kind: Tenant['kind'], from: number, size: number): Tenant => {
    const turns = Array.from({ length: Math.min(size, pool.length) }, (_, i) => pool[(from + i) % pool.length]!);
    const held = new Set(turns.map((t) => t.key));
    const questions = conversations.flatMap(({ dataset, conversation }) =>
      conversation.questions
        .map((q) => ({ question: q.question, asOf: q.asOf, evidence: q.evidence.map((e) => `${dataset}:${conversation.id}:${e}`) }))
        .filter((q) => q.evidence.every((e) => held.has(e))),
    );
    return { namespace, kind, turns, questions };
  };
  const tenants: Tenant[] = [];
  for (let i = 0; i < opts.small; i++) {
    const c = i % conversations.length;
    const variant = Math.floor(i / conversations.length) % 2;
    tenants.push(tenant(`ss-small-${String(i).padStart(3, '0')}`, 'small', starts[c]! + variant * half, opts.smallSize));
  }
  for (let j = 0; j < opts.large; j++)
    tenants.push(tenant(`ss-large-${j}`, 'large', Math.floor((j * pool.length) / Math.max(1, opts.large)), opts.largeSize));
  return tenants;
}

// ---------- ingest ----------

interface IngestWindow {
  storeSize: number;
  memoriesPerSecond: number;
  /** Share of the window's wall time spent in the model (texts not yet embedded). */
  modelShare: number;
  dedupSearchMsPerBatch: number;
  loadAverage: number[];
}

/** Writes every tenant's turns round-robin, from `from[i]` on (a resumed build re-sends a few, which dedup answers). */
async function ingest(bench: BenchServices, tenants: Tenant[], from: number[]): Promise<IngestWindow[]> {
  bench.embedder.memo = new Map();
  const cursors = [...from];
  const total = tenants.reduce((n, t) => n + t.turns.length, 0);
  const windows: IngestWindow[] = [];
  const windowSize = Math.max(opts.batch, Math.round(total / 20));
  const tick = progressTicker(10_000);
  let stored = cursors.reduce((a, b) => a + b, 0);
  let windowStart = performance.now();
  let windowStored = 0;
  let embedAtStart = bench.embedder.totalMs;
  bench.ops.reset();
  while (stored < total) {
    for (const [i, t] of tenants.entries()) {
      if (cursors[i]! >= t.turns.length) continue;
      const batch = t.turns.slice(cursors[i], cursors[i]! + opts.batch);
      cursors[i]! += batch.length;
      const outcomes = await bench.services.remember
        .rememberBatch(batch.map((b) => ({ ...b.input, namespace: t.namespace })))
        .catch((error: Error) => {
          throw new Error(`${t.namespace} at ${int(stored)} stored: ${error.message}; slowest operations: ${slowest(bench)}`);
        });
      const failed = outcomes.find((o) => o.error);
      if (failed?.error) throw new Error(`${t.namespace}: ${failed.error.message}`);
      stored += batch.length;
      windowStored += batch.length;
      if (windowStored >= windowSize || stored === total) {
        const now = performance.now();
        const seconds = (now - windowStart) / 1000;
        const dedup = bench.ops.stats.get('vectors.search')?.totalMs ?? 0;
        const batches = Math.ceil(windowStored / opts.batch);
        windows.push({
          storeSize: stored,
          memoriesPerSecond: round(windowStored / seconds),
          modelShare: round((bench.embedder.totalMs - embedAtStart) / (now - windowStart)),
          dedupSearchMsPerBatch: round(dedup / batches),
          loadAverage: loadAverage(),
        });
        bench.ops.reset();
        windowStart = now;
        windowStored = 0;
        embedAtStart = bench.embedder.totalMs;
      }
      tick(() => `ingested ${int(stored)} / ${int(total)} (last window ${windows.at(-1)?.memoriesPerSecond ?? '–'}/s)`);
    }
  }
  bench.embedder.memo = undefined;
  return windows;
}

function slowest(bench: BenchServices): string {
  return [...bench.ops.stats]
    .map(([op, st]) => [op, Math.max(...st.samples)] as const)
    .sort((a, b) => b[1] - a[1])
    .slice(0, 5)
    .map(([op, max]) => `${op} ${Math.round(max)} ms`)
    .join(', ');
}

// ---------- write probes: the model in the loop ----------

interface WriteProbe {
  storeSize: number;
  batchMemoriesPerSecond: number;
  modelAloneTextsPerSecond: number;
  ratioToModel: number;
  single: Summary;
}

async function writeProbe(bench: BenchServices, storeSize: number, seed: number): Promise<WriteProbe> {
  const namespace = `ss-probe-${seed}-${Date.now().toString(36)}`;
  const corpus = new MemoryCorpus({ seed, namespace });
  const batchInputs = corpus.take(opts.probe).map((m) => m.input);
  const t0 = performance.now();
  await bench.embedder.embed(corpus.take(opts.probe).map((m) => m.input.content));
  const modelAlone = opts.probe / ((performance.now() - t0) / 1000);
  const t1 = performance.now();
  for (let i = 0; i < batchInputs.length; i += opts.batch)
    await bench.services.remember.rememberBatch(batchInputs.slice(i, i + opts.batch));
  const batchRate = opts.probe / ((performance.now() - t1) / 1000);
  const single: number[] = [];
  for (const m of corpus.take(50)) {
    const s = performance.now();
    await bench.services.remember.remember(m.input);
    single.push(performance.now() - s);
  }
  return {
    storeSize,
    batchMemoriesPerSecond: round(batchRate),
    modelAloneTextsPerSecond: round(modelAlone),
    ratioToModel: round(batchRate / modelAlone),
    single: summarize(single),
  };
}

// ---------- CPU per recall ----------

/** Clock ticks per second of /proc's utime and stime. */
const CLOCK_TICKS = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;

/** The process's user + system CPU time so far (ms), from /proc/<pid>/stat; null when unreadable. */
function processCpuMs(pid: number | null | undefined): number | null {
  if (!pid) return null;
  try {
    // Fields after the command name (which may hold spaces): state is the 3rd field, utime the 14th, stime the 15th.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
  } catch {
    return null;
  }
}

/** CPU milliseconds per recall: Neo4j's (the JVM, null when its pid is unknown) and this Node process's (the model included). */
interface CpuPerRecall {
  neo4j: number | null;
  node: number;
}

/** Starts counting both processes' CPU; the returned function divides what they spent since by `recalls`. */
function cpuMeter(neo4jPid: number | null | undefined): (recalls: number) => CpuPerRecall {
  const neo4jStart = processCpuMs(neo4jPid);
  const nodeStart = process.cpuUsage();
  return (recalls) => {
    const neo4jEnd = processCpuMs(neo4jPid);
    const node = process.cpuUsage(nodeStart);
    const n = Math.max(1, recalls);
    return {
      neo4j: neo4jStart === null || neo4jEnd === null ? null : round((neo4jEnd - neo4jStart) / n),
      node: round((node.user + node.system) / 1000 / n),
    };
  };
}

const cpuText = (cpu: CpuPerRecall) => `Neo4j ${cpu.neo4j ?? '–'} + Node ${cpu.node} ms`;

// ---------- recall ----------

interface RecallRun {
  label: string;
  namespaces: number;
  memoriesPerNamespace: number;
  queries: number;
  latencyMs: Summary;
  recallAt10: number;
  /** `vectors.search` statements run (one per recall unless a search widened). */
  vectorSearches: number;
  stagesP50: Record<string, number>;
  /** CPU per recall over the timed phase. */
  cpuMs: CpuPerRecall;
  loadAverage: number[];
}

async function recallOnce(bench: BenchServices, tenant: Tenant, q: Question) {
  const t0 = performance.now();
  const outcome = await bench.services.recall.recall({
    query: q.question,
    namespace: tenant.namespace,
    limit: 10,
    tokenBudget: null,
    ...(q.asOf ? { asOf: q.asOf } : {}),
    trackAccess: false,
  });
  return { ms: performance.now() - t0, outcome };
}

function questionsOf(tenants: Tenant[], n: number): Array<{ tenant: Tenant; q: Question }> {
  const all = tenants.flatMap((tenant) => tenant.questions.map((q) => ({ tenant, q })));
  const step = Math.max(1, Math.floor(all.length / n));
  return all.filter((_, i) => i % step === 0).slice(0, n);
}

async function sequential(
  bench: BenchServices,
  neo4jPid: number | null | undefined,
  label: string,
  tenants: Tenant[],
  externalKeys: Map<string, string>,
): Promise<RecallRun> {
  const picked = questionsOf(tenants, opts.queries);
  for (const { tenant, q } of picked.slice(0, 10)) await recallOnce(bench, tenant, q); // warm
  bench.ops.reset();
  const cpu = cpuMeter(neo4jPid);
  const latencies: number[] = [];
  const stages = new Map<string, number[]>();
  let hits = 0;
  for (const { tenant, q } of picked) {
    const { ms, outcome } = await recallOnce(bench, tenant, q);
    latencies.push(ms);
    for (const [stage, t] of Object.entries(outcome.timings)) stages.set(stage, [...(stages.get(stage) ?? []), t]);
    const found = new Set(outcome.items.slice(0, 10).map((item) => externalKeys.get(item.memory.externalId ?? '') ?? ''));
    hits += q.evidence.filter((e) => found.has(e)).length / q.evidence.length;
  }
  const cpuMs = cpu(picked.length);
  const vectorSearches = bench.ops.stats.get('vectors.search')?.count ?? 0;
  return {
    label,
    namespaces: tenants.length,
    memoriesPerNamespace: tenants[0]?.turns.length ?? 0,
    queries: picked.length,
    latencyMs: summarize(latencies),
    recallAt10: round(hits / Math.max(1, picked.length)),
    vectorSearches,
    stagesP50: Object.fromEntries([...stages].map(([stage, values]) => [stage, summarize(values).p50])),
    cpuMs,
    loadAverage: loadAverage(),
  };
}

async function concurrent(
  bench: BenchServices,
  neo4jPid: number | null | undefined,
  tenants: Tenant[],
): Promise<{
  clients: number;
  recalls: number;
  recallsPerSecond: number;
  latencyMs: Summary;
  errors: number;
  cpuMs: CpuPerRecall;
  loadAverage: number[];
}> {
  const picked = questionsOf(tenants, opts.concurrent);
  const cpu = cpuMeter(neo4jPid);
  const latencies: number[] = [];
  let next = 0;
  let errors = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: opts.clients }, async () => {
      while (next < picked.length) {
        const { tenant, q } = picked[next++]!;
        try {
          latencies.push((await recallOnce(bench, tenant, q)).ms);
        } catch {
          errors += 1;
        }
      }
    }),
  );
  const seconds = (performance.now() - t0) / 1000;
  const cpuMs = cpu(picked.length);
  return {
    clients: opts.clients,
    recalls: picked.length,
    recallsPerSecond: round(picked.length / seconds),
    latencyMs: summarize(latencies),
    errors,
    cpuMs,
    loadAverage: loadAverage(),
  };
}

interface FirstRequests {
  first20: Summary;
  next20: Summary;
  /** first20 ÷ next20, at the p50 and the mean. */
  ratioP50: number;
  ratioMean: number;
  errors: number;
}

/** The first 20 requests of `run` and the next 20, timed one after the other. */
async function firstAndNext<T>(items: readonly T[], run: (item: T) => Promise<unknown>): Promise<FirstRequests> {
  const times: number[] = [];
  let errors = 0;
  for (const item of items.slice(0, 40)) {
    const t0 = performance.now();
    try {
      await run(item);
      times.push(performance.now() - t0);
    } catch (error) {
      errors += 1;
      progress(`first requests: ${(error as Error).message}`);
    }
  }
  const first20 = summarize(times.slice(0, 20));
  const next20 = summarize(times.slice(20));
  return {
    first20,
    next20,
    ratioP50: round(first20.p50 / next20.p50),
    ratioMean: round(first20.mean / next20.mean),
    errors,
  };
}

/**
 * A restart of the service on the same store (new Services, prepared as a start prepares them:
 * the model loaded, the warm-up run), then its first 20 recalls and the next 20, and its first 20
 * single remembers (fresh texts, a namespace of their own) and the next 20.
 */
async function firstRequests(db: BenchDb, tenants: Tenant[]): Promise<{ startMs: number; recall: FirstRequests; remember: FirstRequests }> {
  const t0 = performance.now();
  const fresh = await benchServices(db);
  const startMs = Math.round(performance.now() - t0);
  try {
    const recall = await firstAndNext(questionsOf(tenants, 40), ({ tenant, q }) => recallOnce(fresh, tenant, q));
    const corpus = new MemoryCorpus({ seed: 5, namespace: `ss-first-${Date.now().toString(36)}` });
    const remember = await firstAndNext(
      corpus.take(40).map((m) => m.input),
      (input) => fresh.services.remember.remember(input),
    );
    return { startMs, recall, remember };
  } finally {
    await fresh.close();
  }
}

const firstText = (label: string, r: FirstRequests) =>
  `${label}: first 20 p50 ${r.first20.p50} / p95 ${r.first20.p95} / max ${r.first20.max} ms, next 20 p50 ${r.next20.p50} / p95 ${r.next20.p95} ms; first ÷ next ${r.ratioP50} (p50), ${r.ratioMean} (mean); errors ${r.errors}`;

// ---------- main ----------

const round = (n: number) => Math.round(n * 1000) / 1000;

async function storedCount(bench: BenchServices, namespace: string): Promise<number> {
  const [row] = await bench.services.executor.read<{ n: number }>(
    'bench.count',
    'MATCH (m:Memory {namespace: $namespace}) RETURN count(m) AS n',
    { namespace },
  );
  return Number(row?.n ?? 0);
}

await runBench(async (db) => {
  if (opts.reuse && !db.external) throw new Error('--reuse needs a server that keeps its data: set BENCH_NEO4J_URI');
  const datasets = await Promise.all(positionals.map((dir) => loadDataset(dir)));
  const tenants = layout(datasets);
  const externalKeys = new Map(tenants.flatMap((t) => t.turns.map((turn) => [turn.input.externalId!, turn.key] as [string, string])));
  const bench = await benchServices(db);
  try {
    const machine = await machineFacts(bench.services, db);
    const before = uptimeLine();
    progress(machineLines(machine));
    await bench.services.embedder.embed(['warm up the model']);
    const small = tenants.filter((t) => t.kind === 'small');
    const large = tenants.filter((t) => t.kind === 'large');

    const probes: WriteProbe[] = [];
    let windows: IngestWindow[] = [];
    const expected = tenants.reduce((n, t) => n + t.turns.length, 0);
    const counts = opts.reuse ? await Promise.all(tenants.map((t) => storedCount(bench, t.namespace))) : tenants.map(() => 0);
    const present = counts.reduce((a, b) => a + b, 0);
    // Exact duplicates inside a namespace are stored once (about 11 % of the turns here), so a
    // finished store holds fewer memories than turns: below 85 % it is a build cut short.
    if (present < expected * 0.85) {
      if (present === 0) probes.push(await writeProbe(bench, 0, 1));
      else progress(`resuming the build: ${int(present)} of ${int(expected)} memories stored`);
      windows = await ingest(
        bench,
        tenants,
        counts.map((n, i) => Math.min(n, tenants[i]!.turns.length)),
      );
      probes.push(await writeProbe(bench, expected, 2));
    } else {
      progress(`reusing the store: ${int(present)} memories in ${tenants.length} namespaces`);
      if (opts.probes) probes.push(await writeProbe(bench, present, 3));
    }

    if (opts.firstRecalls) {
      const first = await firstRequests(db, [...small, ...large]);
      const report = { machine, loadBefore: before, probes, firstRequests: first, loadAfter: uptimeLine() };
      if (opts.json) process.stdout.write(`${JSON.stringify(report)}\n`);
      else
        console.log(
          `${before}\nrestart (new services on the same store, warm-up included): ${first.startMs} ms\n${firstText('recall', first.recall)}\n${firstText('remember', first.remember)}\n${report.loadAfter}`,
        );
      return;
    }

    const runs = [
      await sequential(bench, db.pid, 'small namespace', small, externalKeys),
      await sequential(bench, db.pid, 'large namespace', large, externalKeys),
    ];
    const conc = await concurrent(bench, db.pid, tenants);
    const report = {
      machine,
      loadBefore: before,
      layout: { small: opts.small, smallSize: opts.smallSize, large: opts.large, largeSize: opts.largeSize, storeMemories: expected },
      ingest: windows,
      probes,
      recall: runs,
      concurrent: conc,
      loadAfter: uptimeLine(),
    };
    if (opts.json) {
      process.stdout.write(`${JSON.stringify(report)}\n`);
      return;
    }
    console.log(`\n${machineLines(machine)}\nbefore: ${before}`);
    if (probes.length > 0) {
      console.log('\nwrite probes (fresh texts, the model in the loop):');
      console.log(
        table(
          ['store size', 'batch memories/s', 'model alone texts/s', 'ratio', 'single p50 ms', 'single p95 ms'],
          probes.map((p) => [
            int(p.storeSize),
            p.batchMemoriesPerSecond,
            p.modelAloneTextsPerSecond,
            p.ratioToModel.toFixed(2),
            p.single.p50,
            p.single.p95,
          ]),
        ),
      );
    }
    if (windows.length > 0) {
      console.log('\ningest, round-robin over every namespace (each distinct text embedded once):');
      console.log(
        table(
          ['store size', 'memories/s', 'model share', 'dedup search ms/batch', 'load'],
          windows.map((w) => [
            int(w.storeSize),
            w.memoriesPerSecond,
            `${(w.modelShare * 100).toFixed(0)}%`,
            w.dedupSearchMsPerBatch,
            w.loadAverage[0]!.toFixed(2),
          ]),
        ),
      );
    }
    console.log('\nrecall, sequential (limit 10):');
    console.log(
      table(
        ['namespace', 'memories', 'queries', 'p50 ms', 'p95 ms', 'CPU ms/recall Neo4j', 'Node', 'recall@10', 'vector searches', 'load'],
        runs.map((r) => [
          r.label,
          int(r.memoriesPerNamespace),
          r.queries,
          r.latencyMs.p50,
          r.latencyMs.p95,
          r.cpuMs.neo4j ?? '–',
          r.cpuMs.node,
          r.recallAt10.toFixed(3),
          r.vectorSearches,
          r.loadAverage[0]!.toFixed(2),
        ]),
      ),
    );
    for (const r of runs)
      console.log(
        `  ${r.label} stage p50: ${Object.entries(r.stagesP50)
          .map(([s, t]) => `${s} ${t}`)
          .join(', ')}`,
      );
    console.log(
      `\n${conc.clients} clients: ${conc.recallsPerSecond} recalls/s, p50 ${conc.latencyMs.p50} / p95 ${conc.latencyMs.p95} ms, errors ${conc.errors}; CPU per recall ${cpuText(conc.cpuMs)}`,
    );
    console.log(`after: ${report.loadAfter}`);
  } finally {
    await bench.close();
  }
});
