/**
 * Recall quality on conversational datasets in LoCoMo's file shape (LoCoMo, the LongMemEval dev
 * files): every turn becomes a memory (one namespace per conversation), every category 1–4
 * question a query, asked as of its `question_date` when it has one. recall@k = |evidence ∩
 * externalIds of the top k| / |evidence|; beside it recall@1, MRR and session-level recall@k
 * (test/bench/locomo-metrics.ts). The full pipeline and the vector-only and keyword-only
 * baselines run side by side over the same stored data, per dataset and as a macro mean.
 *
 * Usage: npm run bench:locomo -- <dir> [<dir> …] [--json] [--variants] [--cv] [--only a,b]
 *        [--conversations N] [--reuse] [--pooled] [--base '<json>']   (or BENCH_LOCOMO_DIRS=<dir>,<dir>)
 * --base puts recall overrides (JSON) under every configuration of the default recipe.
 * --cv runs the variants and reports cross-validated figures (test/bench/locomo-cv.ts).
 * --reuse (with BENCH_NEO4J_URI) keeps conversations already stored from an earlier run.
 * --pooled also stores every conversation of a dataset in one namespace and asks every question
 * there (test/bench/locomo-pooled.ts), reported beside the per-conversation figures; with two or
 * more datasets, every conversation of all of them in one more namespace ("all/<dataset>" rows).
 * --features <file.jsonl> writes, per question of the "full" configuration, the head of its ranking
 * (the first LEARNED_HEAD results) with each result's learned-ranking features and its label (it holds
 * an evidence turn): the input of test/bench/learn-ranking.ts.
 */
import { createWriteStream, existsSync, mkdirSync, readFileSync, writeFileSync, type WriteStream } from 'node:fs';
import { join } from 'node:path';
import type { Services } from '../../src/app.js';
import type { RecallRecipeName, RecallSettingsOverrides } from '../../src/recall/settings/index.js';
import { LEARNED_RANK_FEATURES, learnedRankFeatures } from './learned-rank.js';
import { benchServices, machineFacts, progress, REPO, routeConsoleToStderr, startBenchDb, uptimeLine } from './perf-harness.js';
import { loadConfigurations, STORE_VARIANTS, TUNING_BASELINES, withBase } from './locomo-configurations.js';
import { crossValidateWithin, leaveOneDatasetOut, type HeldOut, type QuestionResult, type Results } from './locomo-cv.js';
import { loadDataset, type Conversation, type Dataset } from './locomo-data.js';
import { ALL_POOL, pooledAll, pooledDataset } from './locomo-pooled.js';
import { SESSION_KS, scoreRanking, TURN_KS } from './locomo-metrics.js';

/** Results of each ranking written with --features (the learned ranking's head). */
const LEARNED_HEAD = 50;

const BATCH = 100;
const CATEGORY_NAMES: Record<number, string> = { 1: 'multi-hop', 2: 'temporal', 3: 'open-domain', 4: 'single-hop' };

type Recalls = {
  'recall@1': number;
  'recall@5': number;
  'recall@10': number;
  'recall@20': number;
  mrr: number;
  'sessionRecall@5': number;
  'sessionRecall@10': number;
  questions: number;
};
const RECALL_KEYS = ['recall@1', 'recall@5', 'recall@10', 'recall@20', 'mrr', 'sessionRecall@5', 'sessionRecall@10'] as const;
interface Scores extends Recalls {
  byCategory: Record<string, Recalls>;
  meanLatencyMs: number;
}

const args = process.argv.slice(2);
const json = args.includes('--json');
const cv = args.includes('--cv');
const withVariants = cv || args.includes('--variants');
const reuse = args.includes('--reuse');
const withPooled = args.includes('--pooled');
const VALUED = ['--conversations', '--only', '--features', '--base'];
const option = (name: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const conversationLimit = Number(option('--conversations')) || Infinity;
const only = option('--only')?.split(',');
const featuresPath = option('--features');
/** The configuration whose rankings --features writes. */
const FEATURES_OF = 'full';
const dirs = args.filter((a, i) => !a.startsWith('--') && !VALUED.includes(args[i - 1]!));
if (dirs.length === 0) dirs.push(...(process.env.BENCH_LOCOMO_DIRS ?? '').split(',').filter(Boolean));

async function main(): Promise<void> {
  if (dirs.length === 0) {
    throw new Error(
      'name the dataset folders: npm run bench:locomo -- <dir> [<dir> …] (or BENCH_LOCOMO_DIRS=<dir>,<dir>); see docs/recall-quality.md',
    );
  }
  if (json) routeConsoleToStderr();
  const datasets = await Promise.all(dirs.map(loadDataset));
  for (const d of datasets) d.conversations = d.conversations.slice(0, conversationLimit);
  if (new Set(datasets.map((d) => d.name)).size !== datasets.length) throw new Error('two dataset folders share a name');
  const db = await startBenchDb();
  let bench: Awaited<ReturnType<typeof benchServices>> | undefined;
  try {
    bench = await benchServices(db);
    const { services } = bench;
    // Each text is embedded once while the stores are built (a pool holds the same turns again);
    // the memo is dropped before any recall is asked, so no query is answered from it.
    bench.embedder.memo = new Map();
    const ingests = new Map<string, Awaited<ReturnType<typeof ingestDataset>>>();
    for (const dataset of datasets) ingests.set(dataset.name, await ingestDataset(services, dataset));
    const pools = withPooled ? await ingestPools(services, datasets) : undefined;
    bench.embedder.memo = undefined;
    const base = option('--base');
    const configurations = Object.fromEntries(
      Object.entries(withBase(loadConfigurations(withVariants), base ? JSON.parse(base) : {})).filter(
        ([name]) => !only || only.includes(name),
      ),
    );
    const features = featuresPath ? openFeatureFile(featuresPath) : undefined;
    const perQuestion: Results = {};
    const scores: Record<string, Record<string, Scores>> = Object.fromEntries(datasets.map((d) => [d.name, {}]));
    for (const [name, configuration] of Object.entries(configurations)) {
      perQuestion[name] = [];
      for (const dataset of datasets) {
        const { rows, latencyMs } = await evaluate(
          services,
          dataset,
          ingests.get(dataset.name)!.externalIds,
          configuration.recipe,
          configuration.overrides,
          name === FEATURES_OF ? features : undefined,
        );
        perQuestion[name].push(...rows);
        scores[dataset.name]![name] = { ...summarize(rows), meanLatencyMs: round(latencyMs / Math.max(1, rows.length), 1) };
        const s = scores[dataset.name]![name]!;
        progress(`${dataset.name} ${name}: recall@5 ${s['recall@5']}, @10 ${s['recall@10']}, @20 ${s['recall@20']}`);
      }
    }
    if (features) await closeFeatureFile(features);
    const names = Object.keys(configurations);
    const tunable = names.filter((n) => !TUNING_BASELINES.includes(n));
    const crossValidation: CrossValidation | undefined = cv
      ? {
          candidates: tunable,
          withinDatasets: crossValidateWithin(perQuestion, tunable),
          leaveOneDatasetOut: leaveOneDatasetOut(perQuestion, tunable),
        }
      : undefined;
    const pooled = pools ? await evaluatePools(services, pools, configurations) : undefined;
    const machine = { ...(await machineFacts(services, db)), uptimeAtEnd: uptimeLine() };
    const perDataset = datasets.map((d) => {
      const ingest = ingests.get(d.name)!;
      return {
        dataset: d.name,
        conversations: d.conversations.length,
        memories: ingest.memories,
        turns: ingest.turns,
        ingestSeconds: ingest.seconds,
        ...scores[d.name],
      };
    });
    const macro = Object.fromEntries(names.map((n) => [n, macroMean(datasets.map((d) => scores[d.name]![n]!))]));
    if (json) {
      const report =
        datasets.length === 1
          ? { ...perDataset[0], crossValidation, pooled, machine }
          : { datasets: perDataset, macro, crossValidation, pooled, machine };
      process.stdout.write(`${JSON.stringify(report)}\n`);
    } else {
      for (const d of perDataset) printDataset(d as unknown as DatasetReport, names);
      if (datasets.length > 1)
        printSideBySide(
          datasets.map((d) => d.name),
          scores,
          macro,
          names,
        );
      if (crossValidation) printCrossValidation(crossValidation, scores);
      if (pooled) printPooled(pooled, scores, names);
      console.log(`\nmachine: ${JSON.stringify(machine)}`);
    }
  } finally {
    await bench?.close();
    await db.stop();
  }
}

/** Stores every turn once; with --reuse, a conversation whose namespace already holds memories is read back instead. */
async function ingestDataset(services: Services, dataset: Dataset) {
  const started = performance.now();
  const externalIds = new Map<string, string[]>(); // memory id → dia_ids it stands for (dedup merges repeats)
  let turns = 0;
  for (const conversation of dataset.conversations) {
    const namespace = namespaceOf(dataset, conversation);
    const stored = reuse ? await storedExternalIds(services, namespace) : [];
    if (stored.length > 0) {
      for (const [id, ids] of reusedTurns(namespace, stored, conversation.turns.length)) externalIds.set(id, ids);
      turns += conversation.turns.length;
      continue;
    }
    const before = new Set(externalIds.keys());
    for (let i = 0; i < conversation.turns.length; i += BATCH) {
      const batch = conversation.turns.slice(i, i + BATCH);
      const outcomes = await services.remember.rememberBatch(batch.map((t) => ({ ...t, namespace })));
      outcomes.forEach((o, j) => {
        if (o.error) throw new Error(`${conversation.id} ${batch[j]!.externalId}: ${o.error.message}`);
        externalIds.set(o.result.memory.id, [...(externalIds.get(o.result.memory.id) ?? []), batch[j]!.externalId]);
      });
      turns += batch.length;
    }
    if (reuse)
      saveTurnMap(
        namespace,
        [...externalIds].filter(([id]) => !before.has(id)),
      );
    progress(
      `ingested ${dataset.name}/${conversation.id}: ${conversation.turns.length} turns (${turns} total, ${(turns / ((performance.now() - started) / 1000)).toFixed(0)}/s)`,
    );
  }
  return { externalIds, turns, memories: externalIds.size, seconds: round((performance.now() - started) / 1000, 1) };
}

/**
 * A turn the write path merged into another memory (a repeat, a near-duplicate) stores no id of
 * its own, so --reuse cannot read it back from the database: the ingest keeps the whole map
 * (memory id → turns) in test/bench/results/reuse/, and a reuse takes it when its memory ids are
 * the stored ones (else the stored ids alone, and a warning: merged turns then count as missed).
 */
const turnMapFile = (namespace: string) => join(REPO, 'test', 'bench', 'results', 'reuse', `${namespace}.json`);

function saveTurnMap(namespace: string, map: Array<[string, string[]]>): void {
  mkdirSync(join(REPO, 'test', 'bench', 'results', 'reuse'), { recursive: true });
  writeFileSync(turnMapFile(namespace), JSON.stringify(map));
}

function reusedTurns(namespace: string, stored: Array<{ id: string; externalId: string }>, turnCount: number): Array<[string, string[]]> {
  const file = turnMapFile(namespace);
  if (existsSync(file)) {
    const map = JSON.parse(readFileSync(file, 'utf8')) as Array<[string, string[]]>;
    const ids = new Set(stored.map((s) => s.id));
    if (map.length === ids.size && map.every(([id]) => ids.has(id))) return map;
  }
  if (stored.length < turnCount) {
    progress(
      `${namespace}: reused without its turn map; ${turnCount - stored.length} turns merged at ingest count as missed (ingest again to fix the figures)`,
    );
  }
  return stored.map(({ id, externalId }) => [id, [externalId]]);
}

async function storedExternalIds(services: Services, namespace: string): Promise<Array<{ id: string; externalId: string }>> {
  return services.executor.read<{ id: string; externalId: string }>(
    'bench.stored',
    'MATCH (m:Memory {namespace: $namespace}) WHERE m.externalId IS NOT NULL AND m.deletedAt IS NULL RETURN m.id AS id, m.externalId AS externalId',
    { namespace },
  );
}

async function evaluate(
  services: Services,
  dataset: Dataset,
  externalIds: Map<string, string[]>,
  recipe: RecallRecipeName,
  overrides: RecallSettingsOverrides,
  features?: WriteStream,
) {
  const rows: QuestionResult[] = [];
  let latencyMs = 0;
  for (const [index, conversation] of dataset.conversations.entries()) {
    const sessionOf = new Map(conversation.turns.map((t) => [t.externalId, t.sessionId]));
    for (const [questionIndex, q] of conversation.questions.entries()) {
      const outcome = await services.recall.recall({
        query: q.question,
        namespace: namespaceOf(dataset, conversation),
        limit: 20,
        tokenBudget: null,
        ...(q.asOf ? { asOf: q.asOf } : {}),
        recipe,
        overrides,
        trackAccess: false,
      });
      latencyMs += outcome.tookMs;
      const ranked = outcome.items.map((item) => externalIds.get(item.memory.id) ?? []);
      rows.push({
        dataset: q.source ?? dataset.name,
        conversation: index,
        category: q.category,
        ...scoreRanking(ranked, q.evidence, sessionOf),
      });
      if (features) {
        const head = outcome.ranked.slice(0, LEARNED_HEAD);
        const vectors = learnedRankFeatures(head);
        const evidence = new Set(q.evidence);
        const candidates = head.map((r, i) => {
          const turns = externalIds.get(r.candidate.memoryId) ?? [];
          return { turns, label: turns.some((t) => evidence.has(t)) ? 1 : 0, features: vectors[i]!.map((x) => round(x, 6)) };
        });
        const row: FeatureRow = {
          dataset: dataset.name,
          conversation: index,
          question: questionIndex,
          category: q.category,
          evidence: q.evidence,
          candidates,
        };
        features.write(`${JSON.stringify(row)}\n`);
      }
    }
  }
  return { rows, latencyMs };
}

/** One line of the --features file (the first line names the features: `{"features": [...]}`). */
interface FeatureRow {
  dataset: string;
  conversation: number;
  question: number;
  category: number;
  evidence: string[];
  candidates: Array<{ turns: string[]; label: number; features: number[] }>;
}

function openFeatureFile(path: string): WriteStream {
  const stream = createWriteStream(path);
  stream.write(`${JSON.stringify({ features: LEARNED_RANK_FEATURES })}\n`);
  return stream;
}

function closeFeatureFile(stream: WriteStream): Promise<void> {
  return new Promise((resolve, reject) => stream.end((error?: Error | null) => (error ? reject(error) : resolve())));
}

function summarize(rows: readonly QuestionResult[]): Omit<Scores, 'meanLatencyMs'> {
  const mean = (list: readonly QuestionResult[]): Recalls => {
    const avg = (value: (r: QuestionResult) => number) => round(list.reduce((s, r) => s + value(r), 0) / Math.max(1, list.length), 3);
    const turns = Object.fromEntries(TURN_KS.map((k) => [`recall@${k}`, avg((r) => r.hits[k]!)]));
    const sessions = Object.fromEntries(SESSION_KS.map((k) => [`sessionRecall@${k}`, avg((r) => r.sessionHits![k]!)]));
    return { ...turns, mrr: avg((r) => r.reciprocalRank!), ...sessions, questions: list.length } as Recalls;
  };
  const byCategory = Object.fromEntries(
    Object.entries(CATEGORY_NAMES).map(([category, name]) => [name, mean(rows.filter((r) => r.category === Number(category)))]),
  );
  return { ...mean(rows), byCategory };
}

function macroMean(list: readonly Scores[]): Recalls {
  const at = (key: (typeof RECALL_KEYS)[number]) => round(list.reduce((s, x) => s + x[key], 0) / Math.max(1, list.length), 3);
  return {
    ...(Object.fromEntries(RECALL_KEYS.map((key) => [key, at(key)])) as Omit<Recalls, 'questions'>),
    questions: list.reduce((s, x) => s + x.questions, 0),
  };
}

interface CrossValidation {
  candidates: string[];
  withinDatasets: Record<string, HeldOut>;
  leaveOneDatasetOut: Record<string, HeldOut>;
}

type DatasetReport = { dataset: string; conversations: number; memories: number; turns: number; ingestSeconds: number } & Record<
  string,
  Scores
>;

const line = (cells: string[], first = 34) => cells.map((c, i) => (i === 0 ? c.padEnd(first) : c.padStart(10))).join(' ');

function printDataset(report: DatasetReport, names: string[]): void {
  console.log(
    `\n${report.dataset} — ${report.conversations} conversations, ${report.turns} turns → ${report.memories} memories, ingest ${report.ingestSeconds} s`,
  );
  console.log(
    line(['configuration', 'recall@1', 'recall@5', 'recall@10', 'recall@20', 'MRR', 'sess@5', 'sess@10', 'questions', 'ms/query']),
  );
  for (const name of names) {
    const s = report[name]!;
    console.log(line([name, ...RECALL_KEYS.map((key) => fmt(s[key])), String(s.questions), fmt(s.meanLatencyMs, 1)]));
  }
  for (const category of Object.values(CATEGORY_NAMES)) {
    console.log(`  ${category}`);
    for (const name of names) {
      const c = report[name]!.byCategory[category]!;
      if (c.questions > 0)
        console.log(line([`    ${name}`, fmt(c['recall@5']), fmt(c['recall@10']), fmt(c['recall@20']), String(c.questions), '']));
    }
  }
  const full = report.full;
  if (full && report.vector && report.keyword) {
    for (const k of ['recall@5', 'recall@10'] as const) {
      console.log(`full ${k} − better leg = ${fmt(full[k] - Math.max(report.vector[k], report.keyword[k]))} (target ≥ 0.050)`);
    }
  }
}

function printSideBySide(
  datasets: string[],
  scores: Record<string, Record<string, Scores>>,
  macro: Record<string, Recalls>,
  names: string[],
): void {
  console.log(`\nside by side (recall@5 / recall@10)`);
  console.log(line(['configuration', ...datasets.map((d) => d.slice(0, 14).padStart(14)), '    macro mean'], 34));
  for (const name of names) {
    const cell = (r: Recalls) => `${fmt(r['recall@5'])} / ${fmt(r['recall@10'])}`.padStart(14);
    console.log(line([name, ...datasets.map((d) => cell(scores[d]![name]!)), cell(macro[name]!)], 34));
  }
}

function printCrossValidation(cvReport: CrossValidation, scores: Record<string, Record<string, Scores>>): void {
  console.log(
    `\ncross-validated (held-out) recall@5 / @10 beside the all-in default ("full"), choosing among ${cvReport.candidates.length} configurations`,
  );
  console.log(line(['dataset', 'all-in @5', 'all-in @10', 'folds @5', 'folds @10', 'LODO @5', 'LODO @10'], 20));
  for (const [dataset, within] of Object.entries(cvReport.withinDatasets)) {
    const full = scores[dataset]!.full!;
    const lodo = cvReport.leaveOneDatasetOut[dataset];
    console.log(
      line(
        [
          dataset,
          fmt(full['recall@5']),
          fmt(full['recall@10']),
          fmt(within['recall@5']),
          fmt(within['recall@10']),
          lodo ? fmt(lodo['recall@5']) : '–',
          lodo ? fmt(lodo['recall@10']) : '–',
        ],
        20,
      ),
    );
    console.log(`  chosen per fold: ${within.chosen.join(', ')}${lodo ? `; chosen without ${dataset}: ${lodo.chosen[0]}` : ''}`);
  }
}

/** The configurations asked in the pooled namespaces too (the rest are per conversation only), unless --only names them. */
const POOLED_CONFIGURATIONS = ['full', 'vector', 'keyword', ...STORE_VARIANTS];

type Pool = { pool: Dataset; ingest: Awaited<ReturnType<typeof ingestDataset>> };
/** Per dataset ("locomo") and, for the pool of every dataset, per dataset inside it ("all/locomo"). */
type PooledReport = Record<
  string,
  { source: string; memories: number; turns: number; ingestSeconds: number; scores: Record<string, Scores> }
>;

/** Every conversation of each dataset in one namespace and, with two or more datasets, every conversation of all of them in one more (locomo-pooled.ts). */
async function ingestPools(services: Services, datasets: readonly Dataset[]): Promise<Pool[]> {
  const pools = datasets.map(pooledDataset);
  if (datasets.length > 1) pools.push(pooledAll(datasets));
  const stored: Pool[] = [];
  for (const pool of pools) stored.push({ pool, ingest: await ingestDataset(services, pool) });
  return stored;
}

/** Every question asked in its pool; the pool of all datasets is reported per dataset it holds. */
async function evaluatePools(
  services: Services,
  pools: readonly Pool[],
  configurations: ReturnType<typeof loadConfigurations>,
): Promise<PooledReport> {
  const report: PooledReport = {};
  const asked = Object.entries(configurations).filter(([n]) => (only ?? POOLED_CONFIGURATIONS).includes(n));
  for (const { pool, ingest } of pools) {
    for (const [name, configuration] of asked) {
      const { rows, latencyMs } = await evaluate(services, pool, ingest.externalIds, configuration.recipe, configuration.overrides);
      for (const source of new Set(rows.map((r) => r.dataset))) {
        const key = pool.name === ALL_POOL ? `${ALL_POOL}/${source}` : source;
        report[key] ??= { source, memories: ingest.memories, turns: ingest.turns, ingestSeconds: ingest.seconds, scores: {} };
        const s = { ...summarize(rows.filter((r) => r.dataset === source)), meanLatencyMs: round(latencyMs / Math.max(1, rows.length), 1) };
        report[key].scores[name] = s;
        progress(`${key} pooled ${name}: recall@5 ${s['recall@5']}, @10 ${s['recall@10']}`);
      }
    }
  }
  return report;
}

function printPooled(pooled: PooledReport, perConversation: Record<string, Record<string, Scores>>, names: string[]): void {
  for (const [dataset, p] of Object.entries(pooled)) {
    console.log(`\n${dataset} pooled — one namespace, ${p.turns} turns → ${p.memories} memories, ingest ${p.ingestSeconds} s`);
    console.log(line(['configuration', 'conv @5', 'conv @10', 'pooled @5', 'pooled @10', 'ms/query']));
    for (const name of names.filter((n) => p.scores[n])) {
      const c = perConversation[p.source]![name]!;
      const s = p.scores[name]!;
      console.log(line([name, fmt(c['recall@5']), fmt(c['recall@10']), fmt(s['recall@5']), fmt(s['recall@10']), fmt(s.meanLatencyMs, 1)]));
    }
    const { full, vector, keyword } = p.scores;
    if (full && vector && keyword)
      for (const k of ['recall@5', 'recall@10'] as const)
        console.log(`pooled full ${k} − better leg = ${fmt(full[k] - Math.max(vector[k], keyword[k]))} (target ≥ 0.050)`);
  }
}

const namespaceOf = (d: Dataset, c: Conversation) => `bench-${d.name}-${c.id}`.replace(/[^A-Za-z0-9_.-]/g, '_').slice(0, 64);
const round = (n: number, digits = 3) => Math.round(n * 10 ** digits) / 10 ** digits;
const fmt = (n: number, digits = 3) => n.toFixed(digits);

main().catch((error) => {
  process.stderr.write(`bench:locomo failed: ${(error as Error).stack ?? error}\n`);
  process.exit(1);
});
