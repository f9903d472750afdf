/**
 * Recall speed at scale: ingest 10,000 then 100,000 realistic memories (rememberBatch), then
 * measure recall latency p50/p95/p99 with the model warm — sequentially and with concurrent
 * clients — with the mean/p50 of every stage (outcome.timings), the Neo4j queries behind them,
 * and a few setting variants that show where the time could be won.
 *
 *   npm run bench:recall                           # 10,000 then 100,000 (100k ingest takes minutes)
 *   npm run bench:recall -- --sizes 10000          # the quicker run
 *   npm run bench:recall -- --quick                # smoke test
 *   npm run -s bench:recall -- --json              # one JSON object on stdout (-s: no npm banner)
 *   flags: --queries 200 --concurrent 400 --clients 8 --warmup 20 --variants 100 --experiments 50 (0 = skip)
 *          --batch 500 --limit 10 --seed 1
 *   Any setting in the environment is honoured (e.g. EMBEDDING_QUANTIZED=true, RERANK_ENABLED=false).
 *
 * Starts its own Neo4j (.neo4j/bench, bolt 27687, wiped at start, stopped at the end) unless
 * BENCH_NEO4J_URI is set. Targets at 100,000 memories: p50 < 40 ms, p95 < 100 ms.
 */
import { parseArgs } from 'node:util';
import neo4j from 'neo4j-driver';
import { MEMORY_RETURN } from '../../src/db/records.js';
import type { DedupAction } from '../../src/write/remember-service.js';
import type { RecallRecipeName, RecallSettingsOverrides } from '../../src/recall/settings/index.js';
import { vectorLeg } from '../../src/recall/stages/vector-leg.js';
import { loadRecallMemories } from '../../src/recall/stages/hydrate.js';
import type { RecallOutcome } from '../../src/recall/recall-service.js';
import { benchQueries, MemoryCorpus, type BenchQuery } from './perf-corpus.js';
import {
  benchServices,
  cleanNamespace,
  int,
  loadAverage,
  machineFacts,
  machineLines,
  parseSizes,
  pct,
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
  type MachineFacts,
  type Summary,
} from './perf-harness.js';

const TARGET = { atSize: 100_000, p50Ms: 40, p95Ms: 100 };
const NAMESPACE = 'bench-recall';
/** outcome.timings keys in pipeline order; vector, keyword, hints and boost run concurrently. */
const STAGE_ORDER = ['embed', 'vector', 'keyword', 'hints', 'boost', 'load', 'rank', 'context', 'rerank', 'budget'];

const { values: args } = parseArgs({
  options: {
    sizes: { type: 'string' },
    queries: { type: 'string' },
    concurrent: { type: 'string' },
    clients: { type: 'string' },
    warmup: { type: 'string' },
    variants: { type: 'string' },
    experiments: { type: 'string' },
    batch: { type: 'string' },
    limit: { type: 'string' },
    seed: { type: 'string' },
    quick: { type: 'boolean', default: false },
    json: { type: 'boolean', default: false },
  },
  strict: true,
});

const quick = args.quick ?? false;
const opts = {
  sizes: parseSizes(args.sizes, quick ? [2_000] : [10_000, 100_000]).sort((a, b) => a - b),
  queries: positiveInt('queries', args.queries, quick ? 40 : 200),
  concurrent: positiveInt('concurrent', args.concurrent, quick ? 80 : 400),
  clients: positiveInt('clients', args.clients, 8),
  warmup: positiveInt('warmup', args.warmup, quick ? 10 : 20),
  variants: args.variants === '0' ? 0 : positiveInt('variants', args.variants, quick ? 20 : 100),
  experiments: args.experiments === '0' ? 0 : positiveInt('experiments', args.experiments, quick ? 10 : 50),
  batch: positiveInt('batch', args.batch, 500),
  limit: positiveInt('limit', args.limit, 10),
  seed: positiveInt('seed', args.seed, 1),
  json: args.json ?? false,
};
if (opts.json) routeConsoleToStderr();

// ---------- result shapes ----------

type Actions = Record<DedupAction | 'ERROR', number>;

interface IngestResult {
  from: number;
  to: number;
  wallSeconds: number;
  memoriesPerSecond: number;
  embedShare: number;
  actions: Actions;
  loadAverage: number[];
}

interface StageStat {
  stage: string;
  ran: number;
  mean: number;
  p50: number;
  p95: number;
}

interface QueryOpStat {
  operation: string;
  callsPerRecall: number;
  meanMs: number;
  p50Ms: number;
  p95Ms: number;
}

interface RunResult {
  mode: string;
  queries: number;
  clients: number;
  wallSeconds: number;
  recallsPerSecond: number;
  /** Client-side wall time per recall. */
  latencyMs: Summary;
  /** outcome.tookMs. */
  tookMs: Summary;
  stages: StageStat[];
  operations: QueryOpStat[];
  meanCandidates: number;
  meanItems: number;
  /** Share of queries whose results include a memory naming the query's subject. */
  subjectHitRate: number;
  rerankAppliedRate: number;
  errors: number;
  loadAverage: number[];
}

interface VariantResult {
  name: string;
  description: string;
  latencyMs: Summary;
  stagesMean: Record<string, number>;
  subjectHitRate: number;
  /** Mean share of the default configuration's top-`limit` ids that this variant also returns. */
  overlapWithDefault: number;
  meanCandidates: number;
}

interface ExperimentRow {
  experiment: string;
  variant: string;
  latencyMs: Summary;
  meanRows: number;
}

interface SizeResult {
  size: number;
  store: Record<string, number | null>;
  ingest: IngestResult;
  sequential: RunResult;
  concurrent: RunResult;
  /** Judged on the sequential run; applies at TARGET.atSize only. */
  target: { p50Ms: number; p95Ms: number; applies: boolean; p50Met: boolean; p95Met: boolean };
  variants: VariantResult[];
  experiments: ExperimentRow[];
  uptime: string;
}

// ---------- ingest ----------

async function ingestTo(bench: BenchServices, corpus: MemoryCorpus, from: number, to: number): Promise<IngestResult> {
  progress(`ingesting ${int(from)} → ${int(to)} memories (rememberBatch × ${opts.batch})…`);
  const actions: Actions = { STORED_NEW: 0, NEAR_DUPLICATE: 0, DUPLICATE_SEMANTIC: 0, DUPLICATE_EXACT: 0, ECHO: 0, ERROR: 0 };
  const tick = progressTicker(5_000);
  const embedBefore = bench.embedder.totalMs;
  const started = performance.now();
  let windowStart = started;
  let windowCount = 0;
  let done = from;
  while (done < to) {
    const batch = corpus.take(Math.min(opts.batch, to - done)).map((m) => m.input);
    const outcomes = await bench.services.remember.rememberBatch(batch);
    for (const o of outcomes) {
      if (o.error) {
        actions.ERROR += 1;
        if (actions.ERROR === 1) progress(`item failed: ${o.error.message}`);
      } else actions[o.result.dedup.action] += 1;
    }
    done += batch.length;
    windowCount += batch.length;
    tick(() => {
      const now = performance.now();
      const overall = (done - from) / ((now - started) / 1000);
      const recent = windowCount / ((now - windowStart) / 1000);
      windowStart = now;
      windowCount = 0;
      const eta = (to - done) / Math.max(1, recent);
      return `ingested ${int(done)} / ${int(to)} (${int(overall)}/s overall, ${int(recent)}/s recent, ~${Math.ceil(eta / 60)} min left; load ${loadAverage()[0]})`;
    }, done === to);
  }
  const wall = performance.now() - started;
  return {
    from,
    to,
    wallSeconds: Math.round(wall) / 1000,
    memoriesPerSecond: Math.round(((to - from) / (wall / 1000)) * 10) / 10,
    embedShare: Math.round(((bench.embedder.totalMs - embedBefore) / wall) * 10_000) / 10_000,
    actions,
    loadAverage: loadAverage(),
  };
}

// ---------- measure ----------

async function measure(bench: BenchServices, db: BenchDb, size: number, ingest: IngestResult): Promise<SizeResult> {
  const store = await storeFacts(bench, db);
  const all = benchQueries(opts.seed * 1000 + size, opts.warmup + opts.queries + opts.concurrent);
  const warm = all.slice(0, opts.warmup);
  const sequentialQueries = all.slice(opts.warmup, opts.warmup + opts.queries);
  const concurrentQueries = all.slice(opts.warmup + opts.queries);

  progress(`${int(size)}: warming up with ${warm.length} recalls…`);
  for (const q of warm) await recallOnce(bench, q);

  progress(`${int(size)}: ${sequentialQueries.length} sequential recalls…`);
  const sequential = await run(bench, 'sequential', sequentialQueries, 1);
  progress(`${int(size)}: sequential p50 ${sequential.latencyMs.p50} ms, p95 ${sequential.latencyMs.p95} ms`);

  progress(`${int(size)}: ${concurrentQueries.length} recalls from ${opts.clients} concurrent clients…`);
  const concurrent = await run(bench, `${opts.clients} concurrent clients`, concurrentQueries, opts.clients);
  progress(
    `${int(size)}: concurrent p50 ${concurrent.latencyMs.p50} ms, p95 ${concurrent.latencyMs.p95} ms, ${concurrent.recallsPerSecond} recalls/s`,
  );
  const uptime = uptimeLine();

  const variants = opts.variants > 0 ? await runVariants(bench, size, sequentialQueries.slice(0, opts.variants)) : [];
  const experiments = opts.experiments > 0 ? await runExperiments(bench, size, sequentialQueries.slice(0, opts.experiments)) : [];
  const applies = size === TARGET.atSize;
  return {
    size,
    store,
    ingest,
    sequential,
    concurrent,
    target: {
      p50Ms: TARGET.p50Ms,
      p95Ms: TARGET.p95Ms,
      applies,
      p50Met: sequential.latencyMs.p50 < TARGET.p50Ms,
      p95Met: sequential.latencyMs.p95 < TARGET.p95Ms,
    },
    variants,
    experiments,
    uptime,
  };
}

interface RecallSample {
  wallMs: number;
  outcome: RecallOutcome | null;
  hit: boolean;
}

async function recallOnce(
  bench: BenchServices,
  q: BenchQuery,
  variant: { recipe?: RecallRecipeName; overrides?: RecallSettingsOverrides } = {},
): Promise<RecallSample> {
  const t0 = performance.now();
  try {
    const outcome = await bench.services.recall.recall({
      query: q.query,
      namespace: NAMESPACE,
      limit: opts.limit,
      trackAccess: false,
      ...variant,
    });
    const subject = q.subject.toLowerCase();
    return { wallMs: performance.now() - t0, outcome, hit: outcome.items.some((i) => i.memory.content.toLowerCase().includes(subject)) };
  } catch (error) {
    progress(`recall failed for "${q.query}": ${(error as Error).message}`);
    return { wallMs: performance.now() - t0, outcome: null, hit: false };
  }
}

async function run(bench: BenchServices, mode: string, queries: BenchQuery[], clients: number): Promise<RunResult> {
  const samples: RecallSample[] = new Array(queries.length);
  bench.ops.reset();
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: clients }, async () => {
      for (;;) {
        const i = next++;
        if (i >= queries.length) return;
        samples[i] = await recallOnce(bench, queries[i]!);
      }
    }),
  );
  const wall = performance.now() - started;
  const ok = samples.filter((s) => s.outcome);
  const outcomes = ok.map((s) => s.outcome!);
  return {
    mode,
    queries: queries.length,
    clients,
    wallSeconds: Math.round(wall) / 1000,
    recallsPerSecond: Math.round((queries.length / (wall / 1000)) * 10) / 10,
    latencyMs: summarize(samples.map((s) => s.wallMs)),
    tookMs: summarize(outcomes.map((o) => o.tookMs)),
    stages: stageStats(outcomes),
    operations: [...bench.ops.stats]
      .map(([operation, s]) => {
        const sum = summarize(s.samples);
        return {
          operation,
          callsPerRecall: Math.round((s.count / Math.max(1, outcomes.length)) * 100) / 100,
          meanMs: sum.mean,
          p50Ms: sum.p50,
          p95Ms: sum.p95,
        };
      })
      .sort((a, b) => b.meanMs * b.callsPerRecall - a.meanMs * a.callsPerRecall),
    meanCandidates: mean(outcomes.map((o) => o.ranked.length)),
    meanItems: mean(outcomes.map((o) => o.items.length)),
    subjectHitRate: ratio(ok.filter((s) => s.hit).length, queries.length),
    rerankAppliedRate: ratio(outcomes.filter((o) => o.rerankApplied).length, outcomes.length),
    errors: samples.length - ok.length,
    loadAverage: loadAverage(),
  };
}

function stageStats(outcomes: RecallOutcome[]): StageStat[] {
  const keys = [...new Set(outcomes.flatMap((o) => Object.keys(o.timings)))].sort((a, b) => order(a) - order(b));
  return keys.map((stage) => {
    const values = outcomes.map((o) => o.timings[stage]).filter((v): v is number => typeof v === 'number');
    const s = summarize(values);
    return { stage, ran: values.length, mean: s.mean, p50: s.p50, p95: s.p95 };
  });
}

const VARIANTS: Array<{ name: string; description: string; recipe?: RecallRecipeName; overrides?: RecallSettingsOverrides }> = [
  { name: 'default', description: 'configured defaults (same queries, re-run)' },
  { name: 'no-rerank', description: 'rerank.enabled = false', overrides: { rerank: { enabled: false } } },
  { name: 'no-boost', description: 'graph.enabled = false', overrides: { graph: { enabled: false } } },
  { name: 'no-context', description: 'context.enabled = false (no session-neighbour stage)', overrides: { context: { enabled: false } } },
  // As overrides, not `recipe: 'fast'`: a non-default recipe does not apply the configuration
  // (HINTS_ENABLED etc.), so recipe fast would also run the hints leg.
  {
    name: 'fast',
    description: 'no boost, no rerank (what recipe fast means)',
    overrides: { graph: { enabled: false }, rerank: { enabled: false } },
  },
  {
    name: 'lean',
    description: 'no boost, no context, no rerank (legs + fusion + dampening only)',
    overrides: { graph: { enabled: false }, context: { enabled: false }, rerank: { enabled: false } },
  },
  {
    name: 'boost-max-50',
    description: 'graph.maxMemories = 50 (graph-only candidates to load: ≤ 50 instead of ≤ 200)',
    overrides: { graph: { maxMemories: 50 } },
  },
  { name: 'overfetch-2', description: 'overFetchFactor = 2 (20 candidates per leg instead of 40)', overrides: { overFetchFactor: 2 } },
  { name: 'vector-only', description: 'recipe vectorOnly (vector leg alone, plain ranking)', recipe: 'vectorOnly' },
  { name: 'keyword-only', description: 'recipe keywordOnly (keyword leg alone, plain ranking)', recipe: 'keywordOnly' },
];

async function runVariants(bench: BenchServices, size: number, queries: BenchQuery[]): Promise<VariantResult[]> {
  progress(`${int(size)}: ${VARIANTS.length} setting variants × ${queries.length} sequential recalls…`);
  // Round robin (each query through every variant, the starting variant rotating), so load from
  // elsewhere on the machine and cache warmth spread evenly over the variants.
  const samples = VARIANTS.map((): RecallSample[] => []);
  for (const [qi, q] of queries.entries()) {
    for (let k = 0; k < VARIANTS.length; k++) {
      const vi = (qi + k) % VARIANTS.length;
      const v = VARIANTS[vi]!;
      samples[vi]![qi] = await recallOnce(bench, q, {
        ...(v.recipe ? { recipe: v.recipe } : {}),
        ...(v.overrides ? { overrides: v.overrides } : {}),
      });
    }
  }
  const topsOf = (list: RecallSample[]) => list.map((s) => new Set((s.outcome?.items ?? []).map((i) => i.memory.id)));
  const defaultTops = topsOf(samples[VARIANTS.findIndex((v) => v.name === 'default')]!);
  return VARIANTS.map((v, vi) => {
    const list = samples[vi]!;
    const overlaps = topsOf(list).map((t, i) => {
      const base = defaultTops[i] ?? new Set<string>();
      return base.size === 0 ? 1 : [...base].filter((id) => t.has(id)).length / base.size;
    });
    const outcomes = list.flatMap((s) => (s.outcome ? [s.outcome] : []));
    return {
      name: v.name,
      description: v.description,
      latencyMs: summarize(list.map((s) => s.wallMs)),
      stagesMean: Object.fromEntries(stageStats(outcomes).map((s) => [s.stage, s.mean])),
      subjectHitRate: ratio(list.filter((s) => s.hit).length, list.length),
      overlapWithDefault: mean(overlaps),
      meanCandidates: mean(outcomes.map((o) => o.ranked.length)),
    };
  });
}

// ---------- query-shape experiments ----------

// The src functions (vectorLeg, loadRecallMemories) are timed as they are; the cheaper shapes are
// copies of src/recall/stages/hydrate.ts with parts left out — measurements for the lead's
// decisions, not the service's code: keep them in step with src/.
const VECTOR_INDEX_ONLY = `
MATCH (c:Chunk)
  SEARCH c IN (VECTOR INDEX chunk_embedding FOR $vector WHERE c.namespace = $namespace LIMIT $k) SCORE AS score
RETURN c.id AS id, score`;

const LOAD_WHERE = `
UNWIND $ids AS id
MATCH (m:Memory {id: id})
WHERE m.namespace = $namespace
  AND ($includeDeleted OR m.deletedAt IS NULL)
  AND ($includeSuperseded OR m.supersededAt IS NULL)
  AND ($includeCompressed OR coalesce(m.compressed, false) = false)`;

const LOAD_SHAPES: Array<[name: string, cypher: string]> = [
  [
    'without the isConstraint EXISTS',
    `${LOAD_WHERE}
RETURN ${MEMORY_RETURN('m')} AS record,
       [(m)-[:MENTIONS]->(e:Entity) | {entityId: e.id, mentions: e.mentions}] AS entityMentions`,
  ],
  [
    'without entity mentions',
    `${LOAD_WHERE}
RETURN ${MEMORY_RETURN('m')} AS record,
       m.type = 'decision' OR EXISTS { (m)<-[:FROM]-(:Attribute {kind: 'constraint', status: 'active'}) } AS isConstraint`,
  ],
  [
    'record only',
    `${LOAD_WHERE}
RETURN ${MEMORY_RETURN('m')} AS record`,
  ],
  [
    'ids only (index lookups, no projection)',
    `${LOAD_WHERE}
RETURN m.id AS id`,
  ],
];

async function runExperiments(bench: BenchServices, size: number, queries: BenchQuery[]): Promise<ExperimentRow[]> {
  progress(`${int(size)}: query-shape experiments on ${queries.length} recalls…`);
  const cases: Array<{ vector: number[]; ids: string[]; legIds: string[]; graphOnly: number }> = [];
  for (const q of queries) {
    const sample = await recallOnce(bench, q);
    const [vector] = await bench.embedder.embed([q.query]);
    if (!sample.outcome || !vector) continue;
    const ids = sample.outcome.ranked.map((r) => r.candidate.memoryId);
    const legIds = sample.outcome.ranked
      .filter((r) => r.candidate.vector || r.candidate.keyword || r.candidate.hint)
      .map((r) => r.candidate.memoryId);
    cases.push({ vector: Array.from(vector), ids, legIds, graphOnly: ids.length - legIds.length });
  }
  // Collected first, then timed round robin (each case through every shape), so load drift on the
  // machine spreads evenly over the shapes.
  const shapes: Array<{ experiment: string; variant: string; each: (c: (typeof cases)[number]) => Promise<number> }> = [];
  const addShape = (experiment: string, variant: string, each: (c: (typeof cases)[number]) => Promise<number>) => {
    shapes.push({ experiment, variant, each });
  };
  const read = (cypher: string, params: Record<string, unknown>) =>
    bench.services.executor.read('bench.experiment', cypher, params).then((r) => r.length);
  const fetch = opts.limit * bench.services.recall.settingsFor().overFetchFactor;
  // vectorLeg asks the index for k = 2 × limit chunks; the service's limit is recall limit × overFetchFactor.
  for (const limit of [fetch / 4, fetch / 2, fetch, fetch * 2, fetch * 5]) {
    addShape(
      'vector leg (src vectorLeg)',
      `limit ${limit}, k ${limit * 2}${limit === fetch ? ' — as configured' : ''}`,
      async (c) =>
        (await vectorLeg(bench.services.executor, { namespace: NAMESPACE, vector: c.vector, limit, includeDeleted: false })).length,
    );
  }
  addShape('vector leg', `index call alone, k ${fetch * 2}`, (c) =>
    read(VECTOR_INDEX_ONLY, { k: neo4j.int(fetch * 2), vector: c.vector, namespace: NAMESPACE }),
  );
  const loadParams = { namespace: NAMESPACE, includeDeleted: false, includeSuperseded: false, includeCompressed: false };
  const loadLabel = `load ${mean(cases.map((c) => c.ids.length)).toFixed(0)} ids (${mean(cases.map((c) => c.graphOnly)).toFixed(0)} graph-only)`;
  addShape(
    loadLabel,
    'src loadRecallMemories (record + isConstraint + similarities)',
    async (c) => (await loadRecallMemories(bench.services.executor, c.ids, loadParams)).size,
  );
  for (const [name, cypher] of LOAD_SHAPES) addShape(loadLabel, name, (c) => read(cypher, { ...loadParams, ids: c.ids }));
  addShape(
    'load',
    'src loadRecallMemories, without the graph-only candidates',
    async (c) => (await loadRecallMemories(bench.services.executor, c.legIds, loadParams)).size,
  );
  for (const shape of shapes) for (const c of cases.slice(0, 3)) await shape.each(c); // warm the plan cache
  const latencies = shapes.map((): number[] => []);
  const counts = shapes.map((): number[] => []);
  for (const [ci, c] of cases.entries()) {
    for (let k = 0; k < shapes.length; k++) {
      const si = (ci + k) % shapes.length;
      const t0 = performance.now();
      counts[si]!.push(await shapes[si]!.each(c));
      latencies[si]!.push(performance.now() - t0);
    }
  }
  return shapes.map((shape, si) => ({
    experiment: shape.experiment,
    variant: shape.variant,
    latencyMs: summarize(latencies[si]!),
    meanRows: mean(counts[si]!),
  }));
}

async function storeFacts(bench: BenchServices, db: BenchDb): Promise<Record<string, number | null>> {
  const count = async (cypher: string) => (await bench.services.executor.read<{ n: number }>('bench.count', cypher))[0]?.n ?? 0;
  const facts: Record<string, number | null> = {};
  for (const label of ['Memory', 'Chunk', 'Entity', 'Attribute', 'Job', 'HistoryEvent'])
    facts[label] = await count(`MATCH (n:${label}) RETURN count(n) AS n`);
  facts.MENTIONS = await count('MATCH ()-[r:MENTIONS]->() RETURN count(r) AS n');
  facts.RELATES_TO = await count('MATCH ()-[r:RELATES_TO]->() RETURN count(r) AS n');
  facts.DUPLICATE_OF = await count('MATCH ()-[r:DUPLICATE_OF]->() RETURN count(r) AS n');
  const bytes = db.storeBytes();
  facts.storeMiB = bytes === null ? null : Math.round(bytes / 2 ** 20);
  return facts;
}

// ---------- output ----------

function render(machine: MachineFacts, embeddingModel: string, results: SizeResult[]): string {
  const out: string[] = ['== bench:recall ==', machineLines(machine), `embedding model: ${embeddingModel}`, ''];
  out.push(
    `Recall latency (client wall time, limit ${opts.limit}, model warm, access tracking off); targets at ${int(TARGET.atSize)}: p50 < ${TARGET.p50Ms} ms, p95 < ${TARGET.p95Ms} ms`,
  );
  out.push(
    table(
      ['memories', 'mode', 'recalls', 'p50 ms', 'p95 ms', 'p99 ms', 'mean ms', 'recalls/s', 'target p50/p95', 'subject hit', 'load avg'],
      results.flatMap((r) =>
        [r.sequential, r.concurrent].map((x, i) => [
          int(r.size),
          x.mode,
          int(x.queries),
          x.latencyMs.p50,
          x.latencyMs.p95,
          x.latencyMs.p99,
          x.latencyMs.mean,
          x.recallsPerSecond.toFixed(1),
          i === 0
            ? r.target.applies
              ? `${r.target.p50Met ? 'met' : 'MISSED'}/${r.target.p95Met ? 'met' : 'MISSED'}`
              : `(${r.target.p50Met ? 'met' : 'missed'}/${r.target.p95Met ? 'met' : 'missed'})`
            : '',
          pct(x.subjectHitRate),
          x.loadAverage.join(' '),
        ]),
      ),
    ),
  );
  out.push('', `Ingest (rememberBatch, sequential batches of ${opts.batch})`);
  out.push(
    table(
      ['memories', 'wall s', 'memories/s', 'embed share', 'stored', 'near-dup', 'dup', 'errors', 'load avg'],
      results.map((r) => [
        `${int(r.ingest.from)} → ${int(r.ingest.to)}`,
        r.ingest.wallSeconds.toFixed(0),
        r.ingest.memoriesPerSecond.toFixed(0),
        pct(r.ingest.embedShare),
        int(r.ingest.actions.STORED_NEW),
        int(r.ingest.actions.NEAR_DUPLICATE),
        int(r.ingest.actions.DUPLICATE_SEMANTIC + r.ingest.actions.DUPLICATE_EXACT),
        int(r.ingest.actions.ERROR),
        r.ingest.loadAverage.join(' '),
      ]),
    ),
  );
  for (const r of results) {
    out.push(
      '',
      `— ${int(r.size)} memories — store: ${Object.entries(r.store)
        .map(([k, v]) => `${k} ${v === null ? '–' : int(v)}`)
        .join(', ')}`,
      `measured at: ${r.uptime}`,
    );
    {
      const m = r;
      out.push('', `Stages (outcome.timings, ms; vector/keyword/boost run concurrently, so they overlap)`);
      const stages = new Set([...m.sequential.stages, ...m.concurrent.stages].map((s) => s.stage));
      out.push(
        table(
          ['stage', 'seq mean', 'seq p50', 'seq p95', `${opts.clients}× mean`, `${opts.clients}× p50`, `${opts.clients}× p95`],
          [...stages]
            .sort((a, b) => order(a) - order(b))
            .map((stage) => {
              const s = m.sequential.stages.find((x) => x.stage === stage);
              const c = m.concurrent.stages.find((x) => x.stage === stage);
              return [stage, s?.mean ?? NaN, s?.p50 ?? NaN, s?.p95 ?? NaN, c?.mean ?? NaN, c?.p50 ?? NaN, c?.p95 ?? NaN];
            }),
        ),
      );
      out.push(
        `candidates ranked per recall ${m.sequential.meanCandidates.toFixed(0)}, items ${m.sequential.meanItems.toFixed(1)}; rerank applied ${pct(m.sequential.rerankAppliedRate)}; errors ${m.sequential.errors + m.concurrent.errors}`,
      );
      out.push('', 'Neo4j transactions behind the stages (sequential run; session open → close)');
      out.push(
        table(
          ['operation', 'calls/recall', 'mean ms', 'p50 ms', 'p95 ms'],
          m.sequential.operations.map((o) => [o.operation, o.callsPerRecall.toFixed(2), o.meanMs, o.p50Ms, o.p95Ms]),
        ),
      );
    }
    if (r.variants.length) {
      out.push(
        '',
        `Setting variants (same ${r.variants[0]!.latencyMs.n} queries, sequential, round robin over the variants; "overlap" = share of the default's top-${opts.limit} also returned)`,
      );
      const stageKeys = STAGE_ORDER.filter((k) => r.variants.some((v) => k in v.stagesMean));
      out.push(
        table(
          ['variant', 'p50 ms', 'p95 ms', 'mean ms', ...stageKeys.map((k) => `${k} mean`), 'candidates', 'subject hit', 'overlap', 'what'],
          r.variants.map((v) => [
            v.name,
            v.latencyMs.p50,
            v.latencyMs.p95,
            v.latencyMs.mean,
            ...stageKeys.map((k) => v.stagesMean[k] ?? NaN),
            v.meanCandidates.toFixed(0),
            pct(v.subjectHitRate),
            pct(v.overlapWithDefault),
            v.description,
          ]),
        ),
      );
    }
    if (r.experiments.length) {
      out.push(
        '',
        `Query-shape experiments (${r.experiments[0]!.latencyMs.n} recalls' query vectors and candidate ids; transaction time, sequential, round robin)`,
      );
      out.push(
        table(
          ['experiment', 'variant', 'p50 ms', 'p95 ms', 'mean ms', 'rows'],
          r.experiments.map((e) => [e.experiment, e.variant, e.latencyMs.p50, e.latencyMs.p95, e.latencyMs.mean, e.meanRows.toFixed(0)]),
        ),
      );
    }
  }
  out.push('');
  return `${out.join('\n')}\n`;
}

function order(stage: string): number {
  const i = STAGE_ORDER.indexOf(stage);
  return i === -1 ? STAGE_ORDER.length : i;
}

function mean(values: number[]): number {
  return values.length ? Math.round((values.reduce((a, b) => a + b, 0) / values.length) * 100) / 100 : NaN;
}

function ratio(a: number, b: number): number {
  return b ? Math.round((a / b) * 10_000) / 10_000 : NaN;
}

// ---------- run (last, so every module-level constant above is initialised) ----------

await runBench(async (db) => {
  const bench = await benchServices(db);
  try {
    const machine = await machineFacts(bench.services, db);
    progress(machineLines(machine));
    if (db.external) await cleanNamespace(bench.services, NAMESPACE);

    const corpus = new MemoryCorpus({ seed: opts.seed * 1000 + 7, namespace: NAMESPACE });
    const results: SizeResult[] = [];
    let ingested = 0;
    for (const size of opts.sizes) {
      const ingest = await ingestTo(bench, corpus, ingested, size);
      ingested = size;
      results.push(await measure(bench, db, size, ingest));
    }
    const report = {
      benchmark: 'recall',
      startedAt: new Date().toISOString(),
      machine,
      settings: {
        ...opts,
        namespace: NAMESPACE,
        embeddingModel: bench.embedder.modelId,
        rerankEnabled: bench.config.RERANK_ENABLED,
        graphBoostEnabled: bench.config.GRAPH_BOOST_ENABLED,
        hintsEnabled: bench.config.HINTS_ENABLED,
        overFetchFactor: bench.services.recall.settingsFor().overFetchFactor,
        trackAccess: false,
      },
      targets: TARGET,
      results,
    };
    if (opts.json) process.stdout.write(`${JSON.stringify(report)}\n`);
    else process.stdout.write(render(machine, bench.embedder.modelId, results));
  } finally {
    await bench.close();
  }
});
