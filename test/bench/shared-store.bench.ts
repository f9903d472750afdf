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
 *   npm run bench:shared-store -- <dirs> --reuse --first-recalls              # first 20 recalls of a fresh process
 *   npm run -s bench:shared-store -- <dirs> --json                            # one JSON object on stdout
 *   flags: --small 50 --small-size 1000 --large 5 --large-size 10000 --queries 60 --clients 8
 *          --concurrent 400 --probe 200 --batch 100
 *
 * Starts its own Neo4j (see perf-harness.ts) unless BENCH_NEO4J_URI is set; `--reuse` needs a
 * server that keeps its data (BENCH_NEO4J_URI).
 */
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

async function sequential(bench: BenchServices, label: string, tenants: Tenant[], externalKeys: Map<string, string>): Promise<RecallRun> {
  const picked = questionsOf(tenants, opts.queries);
  for (const { tenant, q } of picked.slice(0, 10)) await recallOnce(bench, tenant, q); // warm
  bench.ops.reset();
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
    loadAverage: loadAverage(),
  };
}

async function concurrent(
  bench: BenchServices,
  tenants: Tenant[],
): Promise<{ clients: number; recalls: number; recallsPerSecond: number; latencyMs: Summary; errors: number; loadAverage: number[] }> {
  const picked = questionsOf(tenants, opts.concurrent);
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
  return {
    clients: opts.clients,
    recalls: picked.length,
    recallsPerSecond: round(picked.length / seconds),
    latencyMs: summarize(latencies),
    errors,
    loadAverage: loadAverage(),
  };
}

async function firstRecalls(bench: BenchServices, tenants: Tenant[]): Promise<{ first20: Summary; warm: Summary; errors: number }> {
  const picked = questionsOf(tenants, 60);
  const first: number[] = [];
  let errors = 0;
  for (const { tenant, q } of picked.slice(0, 20)) {
    try {
      first.push((await recallOnce(bench, tenant, q)).ms);
    } catch (error) {
      errors += 1;
      progress(`first recalls: ${(error as Error).message}`);
    }
  }
  const warm: number[] = [];
  for (const { tenant, q } of picked.slice(20)) warm.push((await recallOnce(bench, tenant, q)).ms);
  return { first20: summarize(first), warm: summarize(warm), errors };
}

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

    if (opts.firstRecalls) {
      const result = await firstRecalls(bench, [...small, ...large]);
      const report = { machine, loadBefore: before, firstRecalls: result, loadAfter: uptimeLine() };
      if (opts.json) process.stdout.write(`${JSON.stringify(report)}\n`);
      else
        console.log(
          `${before}\nfirst 20 recalls after start: p50 ${result.first20.p50} / p95 ${result.first20.p95} / max ${result.first20.max} ms, errors ${result.errors}; warm p95 ${result.warm.p95} ms\n${report.loadAfter}`,
        );
      return;
    }

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

    const runs = [
      await sequential(bench, 'small namespace', small, externalKeys),
      await sequential(bench, 'large namespace', large, externalKeys),
    ];
    const conc = await concurrent(bench, tenants);
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
        ['namespace', 'memories', 'queries', 'p50 ms', 'p95 ms', 'recall@10', 'vector searches', 'load'],
        runs.map((r) => [
          r.label,
          int(r.memoriesPerNamespace),
          r.queries,
          r.latencyMs.p50,
          r.latencyMs.p95,
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
      `\n${conc.clients} clients: ${conc.recallsPerSecond} recalls/s, p50 ${conc.latencyMs.p50} / p95 ${conc.latencyMs.p95} ms, errors ${conc.errors}`,
    );
    console.log(`after: ${report.loadAfter}`);
  } finally {
    await bench.close();
  }
});
