/**
 * Write-path speed: p50/p95 latency of single `remember` calls and sustained `rememberBatch`
 * throughput, with the share of time spent embedding and a per-stage profile.
 *
 *   npm run bench:remember                         # full run (single ×300, batches 1,000 and 10,000)
 *   npm run bench:remember -- --quick              # smoke test (a minute)
 *   npm run -s bench:remember -- --json            # one JSON object on stdout (-s: no npm banner)
 *   flags: --sizes 1000,10000  --single 300  --warmup 30  --batch 250  --ab 100 (A/B pairs, 0 = skip)  --seed 1
 *   EMBEDDING_QUANTIZED=true (or any other setting) in the environment is honoured, for comparisons.
 *
 * Starts its own Neo4j (.neo4j/bench, bolt 27687, wiped at start, stopped at the end) unless
 * BENCH_NEO4J_URI is set. Targets: single p50 < 30 ms, batch throughput ≥ 150 memories/s, and
 * per batch size `ratioToRawEmbedding` (memories/s ÷ texts/s of the model alone on the same texts,
 * embedded just before each batch in the same run) ≥ 0.85.
 */
import { parseArgs } from 'node:util';
import { LocalEmbedder } from '../../src/embedding/embedder.js';
import { prepareMemory } from '../../src/write/prepare.js';
import type { DedupAction } from '../../src/write/remember-service.js';
import { validateRememberInput } from '../../src/write/validate-input.js';
import { MemoryCorpus } from './perf-corpus.js';
import {
  benchServices,
  cleanNamespace,
  int,
  loadAverage,
  machineFacts,
  machineLines,
  ms,
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
  TX_AFTER_WORK,
  TX_BEFORE_WORK,
  TX_WORK,
  type BenchServices,
  type Summary,
} from './perf-harness.js';

const TARGET_P50_MS = 30;
const TARGET_THROUGHPUT = 150;
/** memories/s of rememberBatch ÷ texts/s of the model alone on the same texts. */
const TARGET_RATIO = 0.85;

const { values: args } = parseArgs({
  options: {
    sizes: { type: 'string' },
    single: { type: 'string' },
    warmup: { type: 'string' },
    batch: { type: 'string' },
    seed: { type: 'string' },
    ab: { type: 'string' },
    quick: { type: 'boolean', default: false },
    json: { type: 'boolean', default: false },
  },
  strict: true,
});

const quick = args.quick ?? false;
const opts = {
  sizes: parseSizes(args.sizes, quick ? [300] : [1_000, 10_000]),
  single: positiveInt('single', args.single, quick ? 40 : 300),
  warmup: positiveInt('warmup', args.warmup, quick ? 10 : 30),
  batch: positiveInt('batch', args.batch, quick ? 100 : 250),
  seed: positiveInt('seed', args.seed, 1),
  /** Pairs of single calls in the same-run A/B of the write path's concurrency (0 = skip). */
  ab: args.ab === '0' ? 0 : positiveInt('ab', args.ab, quick ? 20 : 100),
  json: args.json ?? false,
};
if (opts.json) routeConsoleToStderr();

const NS = {
  warmup: 'bench-remember-warmup',
  single: 'bench-remember-single',
  batch: (size: number) => `bench-remember-batch-${size}`,
};

type Actions = Record<DedupAction | 'ERROR', number>;
const noActions = (): Actions => ({ STORED_NEW: 0, NEAR_DUPLICATE: 0, DUPLICATE_SEMANTIC: 0, DUPLICATE_EXACT: 0, ECHO: 0, ERROR: 0 });

/** Operation names of the write path (src/write/remember-service.ts) in call order. */
const STAGES: Array<[key: string, label: string]> = [
  ['memories.by-dedup-keys', 'exact dedup query'],
  ['embed', 'embed (model)'],
  ['chunks.nearest', 'semantic dedup query (vector index)'],
  // src/db/search/vector.ts: the batch's vectors, one in-index filtered search per vector.
  ['vectors.search', 'semantic dedup: vector index search (SEARCH … WHERE namespace)'],
  ['remember', 'write transaction'],
  ['memories.by-ids', 'reload of the stored records'],
];

interface StageRow {
  stage: string;
  count: number;
  meanMs: number;
  p50Ms: number;
  p95Ms: number;
  /** Share of the phase's wall time. */
  share: number;
}

interface SingleResult {
  label: string;
  namespace: string;
  storeSizeBefore: number;
  calls: number;
  latencyMs: Summary;
  target: { p50AtMostMs: number; met: boolean };
  actions: Actions;
  stages: StageRow[];
}

interface RawEmbedding {
  /** Texts embedded: the prepared chunk texts of every memory of the phase (one per memory here). */
  texts: number;
  seconds: number;
  textsPerSecond: number;
}

interface BatchResult {
  size: number;
  batchSize: number;
  namespace: string;
  wallSeconds: number;
  memoriesPerSecond: number;
  /**
   * The same memories' texts embedded alone (same Embedder, same calls: one embed() per batch),
   * interleaved with the batches of this phase, so both see the same machine load.
   */
  rawEmbedding: RawEmbedding;
  /** memoriesPerSecond ÷ rawEmbedding.textsPerSecond: the write path's share of the model's speed. */
  ratioToRawEmbedding: number;
  embedShare: number;
  batchLatencyMs: Summary;
  actions: Actions;
  stages: StageRow[];
  target: { atLeastPerSecond: number; met: boolean; ratioAtLeast: number; ratioMet: boolean };
  loadAverage: number[];
}

// ---------- phases ----------

interface AbResult {
  namespace: string;
  pairs: number;
  /** Statements one round trip each, the model after the exact-dedup read (the code before). */
  sequential: Summary;
  /** Statements pipelined, a single memory embedded during the exact-dedup read (the code now). */
  concurrent: Summary;
  /** Write transaction alone, per mode. */
  writeTxSequential: Summary;
  writeTxConcurrent: Summary;
  loadAverage: number[];
}

/**
 * The same-run A/B of the write path's concurrency: single calls alternate between the old order
 * (replayed by the harness: statements one after another, the model waiting for the exact-dedup
 * read) and the code as it is, so both see the same machine load.
 */
async function abPhase(bench: BenchServices, namespace: string, corpus: MemoryCorpus): Promise<AbResult> {
  progress(`A/B: ${opts.ab} pairs of single remember, sequential (old order) vs concurrent (now), alternating…`);
  const samples = { sequential: [] as number[], concurrent: [] as number[], txSequential: [] as number[], txConcurrent: [] as number[] };
  const tick = progressTicker();
  try {
    for (let i = 0; i < opts.ab * 2; i++) {
      const sequential = i % 4 === 0 || i % 4 === 3; // ABBA: neither mode always goes first
      bench.ops.sequential = sequential;
      bench.ops.reset();
      const [m] = corpus.take(1);
      const t0 = performance.now();
      await bench.services.remember.remember(m!.input);
      const elapsed = performance.now() - t0;
      const tx = bench.ops.stats.get('remember')?.samples[0];
      (sequential ? samples.sequential : samples.concurrent).push(elapsed);
      if (tx !== undefined) (sequential ? samples.txSequential : samples.txConcurrent).push(tx);
      tick(() => `A/B ${i + 1} / ${opts.ab * 2}`);
    }
  } finally {
    bench.ops.sequential = false;
    bench.ops.reset();
  }
  return {
    namespace,
    pairs: opts.ab,
    sequential: summarize(samples.sequential),
    concurrent: summarize(samples.concurrent),
    writeTxSequential: summarize(samples.txSequential),
    writeTxConcurrent: summarize(samples.txConcurrent),
    loadAverage: loadAverage(),
  };
}

async function warmUp(bench: BenchServices): Promise<void> {
  progress(`warming up: model, ${opts.warmup} single calls, one batch…`);
  const corpus = new MemoryCorpus({ seed: opts.seed * 1000 + 999, namespace: NS.warmup });
  for (let i = 0; i < 3; i++) await bench.embedder.embed(corpus.take(32).map((m) => m.input.content));
  for (const m of corpus.take(opts.warmup)) await bench.services.remember.remember(m.input);
  await bench.services.remember.rememberBatch(corpus.take(Math.min(opts.batch, 100)).map((m) => m.input));
}

async function singlePhase(
  bench: BenchServices,
  label: string,
  namespace: string,
  storeSizeBefore: number,
  corpus: MemoryCorpus,
): Promise<SingleResult> {
  progress(`single remember × ${opts.single} (${label})…`);
  const inputs = corpus.take(opts.single).map((m) => m.input);
  const latencies: number[] = [];
  const embedSamples: number[] = [];
  const actions = noActions();
  bench.ops.reset();
  const tick = progressTicker();
  const started = performance.now();
  for (const [i, input] of inputs.entries()) {
    const embedBefore = bench.embedder.totalMs;
    const t0 = performance.now();
    try {
      const result = await bench.services.remember.remember(input);
      actions[result.dedup.action] += 1;
    } catch (error) {
      actions.ERROR += 1;
      if (actions.ERROR === 1) progress(`remember failed: ${(error as Error).message}`);
    }
    latencies.push(performance.now() - t0);
    embedSamples.push(bench.embedder.totalMs - embedBefore);
    tick(() => `single ${i + 1} / ${inputs.length}`);
  }
  const wall = performance.now() - started;
  const latencyMs = summarize(latencies);
  return {
    label,
    namespace,
    storeSizeBefore,
    calls: inputs.length,
    latencyMs,
    target: { p50AtMostMs: TARGET_P50_MS, met: latencyMs.p50 <= TARGET_P50_MS },
    actions,
    stages: stageRows(bench, wall, embedSamples, latencies),
  };
}

async function batchPhase(bench: BenchServices, size: number, corpus: MemoryCorpus): Promise<BatchResult> {
  progress(`rememberBatch: ${int(size)} memories in batches of ${opts.batch}, each batch's texts also embedded alone just before it…`);
  const actions = noActions();
  const batchLatencies: number[] = [];
  const embedSamples: number[] = [];
  const settings = prepareSettings(bench);
  const raw = { texts: 0, ms: 0 };
  bench.ops.reset();
  const tick = progressTicker();
  let done = 0;
  let writeMs = 0;
  while (done < size) {
    const batch = corpus.take(Math.min(opts.batch, size - done)).map((m) => m.input);
    // Raw model speed on exactly the texts the write path embeds (prepared chunks), outside the
    // write path's clock; the embedder's own counters are restored so the stage profile stays the write path's.
    const texts = batch.flatMap((input) => prepareMemory(validateRememberInput(input, settings), settings).chunks.map((c) => c.text));
    const counters = bench.embedder.snapshot();
    const r0 = performance.now();
    await bench.embedder.embed(texts);
    raw.ms += performance.now() - r0;
    raw.texts += texts.length;
    Object.assign(bench.embedder, counters);

    const embedBefore = bench.embedder.totalMs;
    const t0 = performance.now();
    const outcomes = await bench.services.remember.rememberBatch(batch);
    const elapsed = performance.now() - t0;
    writeMs += elapsed;
    batchLatencies.push(elapsed);
    embedSamples.push(bench.embedder.totalMs - embedBefore);
    for (const o of outcomes) {
      if (o.error) {
        actions.ERROR += 1;
        if (actions.ERROR === 1) progress(`item failed: ${o.error.message}`);
      } else actions[o.result.dedup.action] += 1;
    }
    done += batch.length;
    tick(
      () =>
        `ingested ${int(done)} / ${int(size)} (${int(done / (writeMs / 1000))}/s; model alone ${int(raw.texts / (raw.ms / 1000))} texts/s)`,
      done === size,
    );
  }
  // The phase's wall time is the write path's alone: the raw embedding in between is not counted.
  const wall = writeMs;
  const memoriesPerSecond = Math.round((size / (wall / 1000)) * 10) / 10;
  const rawEmbedding = {
    texts: raw.texts,
    seconds: Math.round(raw.ms) / 1000,
    textsPerSecond: Math.round((raw.texts / (raw.ms / 1000)) * 10) / 10,
  };
  return {
    size,
    batchSize: opts.batch,
    namespace: NS.batch(size),
    wallSeconds: Math.round(wall) / 1000,
    memoriesPerSecond,
    rawEmbedding,
    ratioToRawEmbedding: round4(memoriesPerSecond / rawEmbedding.textsPerSecond),
    embedShare: round4(embedSamples.reduce((a, b) => a + b, 0) / wall),
    batchLatencyMs: summarize(batchLatencies),
    actions,
    stages: stageRows(bench, wall, embedSamples, batchLatencies),
    target: {
      atLeastPerSecond: TARGET_THROUGHPUT,
      met: memoriesPerSecond >= TARGET_THROUGHPUT,
      ratioAtLeast: TARGET_RATIO,
      ratioMet: memoriesPerSecond / rawEmbedding.textsPerSecond >= TARGET_RATIO,
    },
    loadAverage: loadAverage(),
  };
}

/** Stage timings of one phase: each operation, the statements of the write transaction, and the rest (CPU: validate, normalize, redact, link, chunk; JS overhead). */
function stageRows(bench: BenchServices, wall: number, embedSamples: number[], callLatencies: number[]): StageRow[] {
  const row = (stage: string, samples: number[]): StageRow => {
    const s = summarize(samples);
    return {
      stage,
      count: samples.length,
      meanMs: s.mean,
      p50Ms: s.p50,
      p95Ms: s.p95,
      share: round4(samples.reduce((a, b) => a + b, 0) / wall),
    };
  };
  const rows: StageRow[] = [];
  let accounted = 0;
  for (const [key, label] of STAGES) {
    const samples = key === 'embed' ? embedSamples : (bench.ops.stats.get(key)?.samples ?? []);
    if (samples.length === 0) continue;
    accounted += samples.reduce((a, b) => a + b, 0);
    rows.push(row(`${label}${key === 'embed' ? '' : ` [${key}]`}`, samples));
    if (key === 'remember') {
      const write = bench.ops.stats.get('remember')!;
      let statements = 0;
      for (const [op, s] of bench.ops.stats) {
        if (!op.startsWith('remember › ')) continue;
        statements += s.totalMs;
        // One sample per call of the statement; a call may skip a statement (no mentions, …).
        rows.push({ ...row(`  › ${op.slice('remember › '.length)}`, s.samples), count: s.count });
      }
      // The transaction's own cost, split at the work function: before it (session, connection,
      // BEGIN is pipelined with the first statement), after it (COMMIT round trip, session close).
      const before = bench.ops.stats.get(`remember${TX_BEFORE_WORK}`);
      const after = bench.ops.stats.get(`remember${TX_AFTER_WORK}`);
      const work = bench.ops.stats.get(`remember${TX_WORK}`);
      if (before && after && work) {
        rows.push(row('  › session + connection, before the first statement', before.samples));
        rows.push(row('  › all statements (the work function; pipelined ones overlap above)', work.samples));
        rows.push(row('  › COMMIT + session close, after the last statement', after.samples));
      } else {
        const other = write.totalMs - statements;
        rows.push({
          stage: '  › session, begin, commit',
          count: write.count,
          meanMs: round2(other / write.count),
          p50Ms: NaN,
          p95Ms: NaN,
          share: round4(other / wall),
        });
      }
    }
  }
  const rest = wall - accounted;
  rows.push({
    stage: 'prepare + other CPU (rest)',
    count: callLatencies.length,
    meanMs: round2(rest / callLatencies.length),
    p50Ms: NaN,
    p95Ms: NaN,
    share: round4(rest / wall),
  });
  return rows;
}

/** Figures that explain the phases: CPU of the prepare stage, raw model speed, the quantized model for comparison. */
/** The prepare settings the service uses (src/app.ts builds the same from the config). */
function prepareSettings(bench: BenchServices) {
  const config = bench.config;
  return {
    defaultNamespace: config.DEFAULT_NAMESPACE,
    maxContentChars: config.MAX_CONTENT_CHARS,
    maxMetadataBytes: config.MAX_METADATA_BYTES,
    redaction: { enabled: config.REDACTION_ENABLED, redactEmails: config.REDACT_EMAILS, extraPatterns: config.REDACTION_EXTRA_PATTERNS },
  };
}

async function isolatedProfile(bench: BenchServices) {
  progress('profiling: prepare CPU, raw embedding speed…');
  const config = bench.config;
  const settings = prepareSettings(bench);
  const corpus = new MemoryCorpus({ seed: opts.seed * 1000 + 500, namespace: 'bench-remember-profile' });
  const inputs = corpus.take(2_000).map((m) => m.input);
  for (const input of inputs.slice(0, 200)) prepareMemory(validateRememberInput(input, settings), settings);
  const t0 = performance.now();
  for (const input of inputs) prepareMemory(validateRememberInput(input, settings), settings);
  const prepareUsPerMemory = Math.round(((performance.now() - t0) / inputs.length) * 1000);

  const texts = inputs.map((i) => i.content);
  const timeEmbed = async (embedder: LocalEmbedder) => {
    await embedder.embed(texts.slice(0, 32));
    const single: number[] = [];
    for (const text of texts.slice(100, 140)) {
      const t = performance.now();
      await embedder.embed([text]);
      single.push(performance.now() - t);
    }
    const bulk = texts.slice(200, 200 + 256);
    const cpu0 = process.cpuUsage();
    const t = performance.now();
    await embedder.embed(bulk);
    const bulkMs = performance.now() - t;
    const cpu = process.cpuUsage(cpu0);
    // Same texts sorted by length: a model batch is padded to its longest text.
    const sorted = [...texts.slice(456, 456 + 256)].sort((a, b) => a.length - b.length);
    const ts = performance.now();
    await embedder.embed(sorted);
    const sortedMs = performance.now() - ts;
    return {
      singleTextMs: summarize(single),
      textsPerSecondInBatches: Math.round(bulk.length / (bulkMs / 1000)),
      textsPerSecondSortedByLength: Math.round(sorted.length / (sortedMs / 1000)),
      /** Process CPU time / wall time while embedding: ~cores the model got (2 = both of a 2-core box). */
      coresUsed: Math.round(((cpu.user + cpu.system) / 1000 / bulkMs) * 100) / 100,
      batchSize: embedder.batchSize,
    };
  };
  const model = { modelId: bench.embedder.modelId, ...(await timeEmbed(bench.embedder)) };
  // The other variant of the model (8-bit when the float one is configured, and vice versa), for comparison.
  let other: typeof model | null = null;
  try {
    const o = new LocalEmbedder({
      modelName: config.EMBEDDING_MODEL,
      modelDir: config.EMBEDDING_MODEL_DIR,
      batchSize: config.EMBEDDING_BATCH_SIZE,
      quantized: !config.EMBEDDING_QUANTIZED,
    });
    await o.load();
    other = { modelId: o.modelId, ...(await timeEmbed(o)) };
    await o.dispose();
  } catch (error) {
    progress(`the other model variant was not measured: ${(error as Error).message}`);
  }
  const large: Record<string, number> = {};
  for (const batchSize of [8, 64]) {
    const e = new LocalEmbedder({
      modelName: config.EMBEDDING_MODEL,
      modelDir: config.EMBEDDING_MODEL_DIR,
      batchSize,
      quantized: config.EMBEDDING_QUANTIZED,
    });
    await e.load();
    await e.embed(texts.slice(0, batchSize));
    const bulk = texts.slice(500, 756);
    const t = performance.now();
    await e.embed(bulk);
    large[`batch${batchSize}`] = Math.round(bulk.length / ((performance.now() - t) / 1000));
    await e.dispose();
  }
  const commit = await commitProbe(bench);
  return {
    prepareUsPerMemory,
    embedding: model,
    embeddingOtherVariant: other,
    textsPerSecondByModelBatchSize: { [`batch${model.batchSize}`]: model.textsPerSecondInBatches, ...large },
    commit,
  };
}

/**
 * What a write transaction's own cost is, apart from its statements: one-statement write
 * transactions that touch nothing, an unindexed node, a full-text-indexed node, a vector-indexed
 * node (src sets TCP_NODELAY, so these are the server's figures, not the socket's); the probe's
 * nodes live in their own namespace and are deleted afterwards.
 */
async function commitProbe(bench: BenchServices) {
  const namespace = 'bench-remember-probe';
  const executor = bench.services.executor;
  const vector = Array.from((await bench.embedder.embed(['commit probe']))[0]!);
  const probes: Array<[string, string, () => Record<string, unknown>]> = [
    ['write tx, no change (RETURN 1)', 'RETURN 1 AS one', () => ({})],
    [
      'write tx, 1 unindexed node',
      'CREATE (:BenchProbe {namespace: $namespace, id: randomUUID(), text: $text})',
      () => ({ namespace, text: 'probe text' }),
    ],
    [
      'write tx, 1 Memory node (full-text + range + unique indexes)',
      'CREATE (:Memory {namespace: $namespace, namespaceToken: $namespace, id: randomUUID(), dedupKey: randomUUID(), content: $text})',
      () => ({
        namespace,
        text: 'Priya decided to use Redis for the session store instead of Memcached because the managed offering is cheaper.',
      }),
    ],
    [
      'write tx, 1 Chunk node with vector (vector index)',
      "CREATE (c:Chunk {namespace: $namespace, id: randomUUID()}) WITH c CALL db.create.setNodeVectorProperty(c, 'embedding', $vector)",
      () => ({ namespace, vector }),
    ],
  ];
  // On the bench's own (wiped) server only: an eventually consistent full-text index next to a
  // synchronous one, to price the index refresh a commit waits for.
  const ownServer = !process.env.BENCH_NEO4J_URI;
  if (ownServer) {
    await executor.autoCommit(
      'bench.probe',
      'CREATE FULLTEXT INDEX bench_probe_sync IF NOT EXISTS FOR (n:BenchProbeSync) ON EACH [n.content]',
    );
    await executor.autoCommit(
      'bench.probe',
      'CREATE FULLTEXT INDEX bench_probe_eventual IF NOT EXISTS FOR (n:BenchProbeEventual) ON EACH [n.content] OPTIONS { indexConfig: { `fulltext.eventually_consistent`: true } }',
    );
    await executor.autoCommit('bench.probe', 'CALL db.awaitIndexes(60)');
    const text = 'Priya decided to use Redis for the session store instead of Memcached because the managed offering is cheaper.';
    probes.push(
      [
        'write tx, 1 node in a full-text index (default: synchronous)',
        'CREATE (:BenchProbeSync {namespace: $namespace, content: $text})',
        () => ({ namespace, text }),
      ],
      [
        'write tx, 1 node in a full-text index with eventually_consistent',
        'CREATE (:BenchProbeEventual {namespace: $namespace, content: $text})',
        () => ({ namespace, text }),
      ],
    );
  }
  const rows: Array<{ probe: string; latencyMs: Summary }> = [];
  try {
    // Round robin, so load from elsewhere on the machine spreads evenly over the probes.
    for (const [, cypher, params] of probes) for (let i = 0; i < 5; i++) await executor.write('bench.probe', cypher, params());
    const samples = probes.map((): number[] => []);
    const reads: number[] = [];
    for (let i = 0; i < 60; i++) {
      const t0 = performance.now();
      await executor.read('bench.probe', 'RETURN 1 AS one');
      reads.push(performance.now() - t0);
      for (const [j, [, cypher, params]] of probes.entries()) {
        const t = performance.now();
        await executor.write('bench.probe', cypher, params());
        samples[j]!.push(performance.now() - t);
      }
    }
    for (const [j, [name]] of probes.entries()) rows.push({ probe: name, latencyMs: summarize(samples[j]!) });
    rows.unshift({ probe: 'read tx, RETURN 1 (round trips only)', latencyMs: summarize(reads) });
  } finally {
    await cleanNamespace(bench.services, namespace);
    if (ownServer) {
      await executor.autoCommit('bench.probe', 'DROP INDEX bench_probe_sync IF EXISTS');
      await executor.autoCommit('bench.probe', 'DROP INDEX bench_probe_eventual IF EXISTS');
    }
  }
  return rows;
}

// ---------- output ----------

function render(report: {
  machine: Parameters<typeof machineLines>[0];
  uptime: string;
  single: SingleResult[];
  batches: BatchResult[];
  profile: Awaited<ReturnType<typeof isolatedProfile>>;
  ab: AbResult[];
  settings: typeof opts & { embeddingModel: string; embeddingBatchSize: number; pipelineEnabled: boolean };
}): string {
  const out: string[] = [];
  out.push(
    '== bench:remember ==',
    machineLines(report.machine),
    `at the end: ${report.uptime}`,
    `embedding model: ${report.settings.embeddingModel}`,
    '',
  );
  out.push(`Single remember — sequential calls, one-chunk memories (100–300 chars), model warm; target p50 ≤ ${TARGET_P50_MS} ms`);
  out.push(
    table(
      ['store', 'calls', 'p50 ms', 'p95 ms', 'p99 ms', 'mean ms', 'max ms', 'target', 'stored/near/dup'],
      report.single.map((s) => [
        s.label,
        int(s.calls),
        s.latencyMs.p50,
        s.latencyMs.p95,
        s.latencyMs.p99,
        s.latencyMs.mean,
        s.latencyMs.max,
        s.target.met ? 'met' : 'MISSED',
        actionsText(s.actions),
      ]),
    ),
  );
  for (const s of report.single) {
    out.push('', `Where a single remember spends its time — ${s.label} (per call; stages are sequential)`);
    out.push(stageTable(s.stages));
  }
  out.push(
    '',
    `rememberBatch throughput — sequential batches of ${report.settings.batch}, model batch ${report.settings.embeddingBatchSize}; target ≥ ${TARGET_THROUGHPUT} memories/s and ≥ ${TARGET_RATIO} × the model alone on the same texts (embedded just before each batch)`,
  );
  out.push(
    table(
      [
        'memories',
        'wall s',
        'memories/s',
        'model alone texts/s',
        'ratio',
        'embed share',
        'batch p50 ms',
        'batch p95 ms',
        'target rate / ratio',
        'stored/near/dup',
        'load avg',
      ],
      report.batches.map((b) => [
        int(b.size),
        b.wallSeconds.toFixed(1),
        b.memoriesPerSecond.toFixed(0),
        b.rawEmbedding.textsPerSecond.toFixed(0),
        b.ratioToRawEmbedding.toFixed(2),
        pct(b.embedShare),
        b.batchLatencyMs.p50,
        b.batchLatencyMs.p95,
        `${b.target.met ? 'met' : 'MISSED'} / ${b.target.ratioMet ? 'met' : 'MISSED'}`,
        actionsText(b.actions),
        b.loadAverage.join(' '),
      ]),
    ),
  );
  for (const b of report.batches) {
    out.push('', `Where batch time goes — ${int(b.size)} memories (per batch of ${b.batchSize})`);
    out.push(stageTable(b.stages));
  }
  if (report.ab.length) {
    out.push(
      '',
      'Same-run A/B of the write path (single calls alternating ABBA): old order = statements one round trip each, model after the exact-dedup read',
    );
    out.push(
      table(
        ['namespace', 'pairs', 'mode', 'p50 ms', 'p95 ms', 'mean ms', 'write tx p50 ms', 'write tx mean ms', 'load avg'],
        report.ab.flatMap((a) => [
          [
            a.namespace,
            int(a.pairs),
            'old order',
            a.sequential.p50,
            a.sequential.p95,
            a.sequential.mean,
            a.writeTxSequential.p50,
            a.writeTxSequential.mean,
            a.loadAverage.join(' '),
          ],
          [
            a.namespace,
            int(a.pairs),
            'now (concurrent)',
            a.concurrent.p50,
            a.concurrent.p95,
            a.concurrent.mean,
            a.writeTxConcurrent.p50,
            a.writeTxConcurrent.mean,
            a.loadAverage.join(' '),
          ],
        ]),
      ),
    );
  }
  const p = report.profile;
  out.push('', 'Isolated profile');
  out.push(
    table(
      ['measure', 'value'],
      [
        ['prepare (validate, normalize, redact, tag, link, chunk) per memory', `${p.prepareUsPerMemory} µs`],
        [`embed 1 text (${p.embedding.modelId}) p50 / p95`, `${ms(p.embedding.singleTextMs.p50)} / ${ms(p.embedding.singleTextMs.p95)} ms`],
        ...Object.entries(p.textsPerSecondByModelBatchSize).map(([k, v]): [string, string] => [
          `embed 256 texts, model ${k.replace('batch', 'batch ')}`,
          `${int(v)} texts/s`,
        ]),
        [
          `embed 256 texts sorted by length, model batch ${p.embedding.batchSize}`,
          `${int(p.embedding.textsPerSecondSortedByLength)} texts/s`,
        ],
        ['CPU cores the model got while embedding (process CPU / wall)', p.embedding.coresUsed.toFixed(2)],
        ...(p.embeddingOtherVariant
          ? ([
              [
                `embed 1 text (${p.embeddingOtherVariant.modelId}, not configured) p50 / p95`,
                `${ms(p.embeddingOtherVariant.singleTextMs.p50)} / ${ms(p.embeddingOtherVariant.singleTextMs.p95)} ms`,
              ],
              [
                `embed 256 texts (${p.embeddingOtherVariant.modelId}, not configured), batch ${p.embeddingOtherVariant.batchSize}`,
                `${int(p.embeddingOtherVariant.textsPerSecondInBatches)} texts/s`,
              ],
              ['CPU cores it got while embedding', p.embeddingOtherVariant.coresUsed.toFixed(2)],
            ] as Array<[string, string]>)
          : []),
      ],
    ),
  );
  out.push('', 'Transaction cost probe (one statement per transaction, 60 each, round robin)');
  out.push(
    table(
      ['transaction', 'p50 ms', 'p95 ms', 'mean ms'],
      p.commit.map((c) => [c.probe, c.latencyMs.p50, c.latencyMs.p95, c.latencyMs.mean]),
    ),
  );
  out.push('');
  return `${out.join('\n')}\n`;
}

function stageTable(rows: StageRow[]): string {
  return table(
    ['stage', 'calls', 'mean ms', 'p50 ms', 'p95 ms', 'share of wall'],
    rows.map((r) => [r.stage, int(r.count), r.meanMs, r.p50Ms, r.p95Ms, pct(r.share)]),
  );
}

function actionsText(a: Actions): string {
  return `${int(a.STORED_NEW)}/${int(a.NEAR_DUPLICATE)}/${int(a.DUPLICATE_SEMANTIC + a.DUPLICATE_EXACT)}${a.ERROR ? ` (${a.ERROR} errors)` : ''}`;
}

function round2(n: number): number {
  return Math.round(n * 100) / 100;
}

function round4(n: number): number {
  return Math.round(n * 10_000) / 10_000;
}

// ---------- run (last, so every module-level constant above is initialised) ----------

await runBench(async (db) => {
  const bench = await benchServices(db);
  try {
    const machine = await machineFacts(bench.services, db);
    progress(machineLines(machine));
    if (db.external) for (const ns of [NS.warmup, NS.single, ...opts.sizes.map(NS.batch)]) await cleanNamespace(bench.services, ns);

    await warmUp(bench);

    const single: SingleResult[] = [];
    single.push(
      await singlePhase(bench, 'empty store', NS.single, 0, new MemoryCorpus({ seed: opts.seed * 1000 + 1, namespace: NS.single })),
    );

    const batches: BatchResult[] = [];
    for (const [i, size] of opts.sizes.entries()) {
      batches.push(await batchPhase(bench, size, new MemoryCorpus({ seed: opts.seed * 1000 + 10 + i, namespace: NS.batch(size) })));
    }

    // The same single calls against a populated namespace (the largest batch phase's).
    const largest = Math.max(...opts.sizes);
    single.push(
      await singlePhase(
        bench,
        `populated (${int(largest)} memories)`,
        NS.batch(largest),
        largest,
        new MemoryCorpus({ seed: opts.seed * 1000 + 2, namespace: NS.batch(largest) }),
      ),
    );

    const ab: AbResult[] = [];
    if (opts.ab > 0) {
      ab.push(await abPhase(bench, NS.single, new MemoryCorpus({ seed: opts.seed * 1000 + 3, namespace: NS.single })));
      ab.push(await abPhase(bench, NS.batch(largest), new MemoryCorpus({ seed: opts.seed * 1000 + 4, namespace: NS.batch(largest) })));
    }

    const profile = await isolatedProfile(bench);
    const report = {
      benchmark: 'remember',
      startedAt: new Date().toISOString(),
      machine,
      uptime: uptimeLine(),
      loadAverageAtEnd: loadAverage(),
      settings: {
        ...opts,
        embeddingModel: bench.embedder.modelId,
        embeddingBatchSize: bench.config.EMBEDDING_BATCH_SIZE,
        pipelineEnabled: bench.config.PIPELINE_ENABLED,
        dedupThresholds: [
          bench.config.DEDUP_NEAR_THRESHOLD ?? bench.embedder.profile.nearDuplicateThreshold,
          bench.config.DEDUP_DUPLICATE_THRESHOLD ?? bench.embedder.profile.duplicateThreshold,
        ],
      },
      targets: { singleP50Ms: TARGET_P50_MS, batchMemoriesPerSecond: TARGET_THROUGHPUT, ratioToRawEmbedding: TARGET_RATIO },
      single,
      batches,
      ab,
      profile,
    };
    if (opts.json) process.stdout.write(`${JSON.stringify(report)}\n`);
    else process.stdout.write(render(report));
  } finally {
    await bench.close();
  }
});
