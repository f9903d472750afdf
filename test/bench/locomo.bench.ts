/**
 * Recall quality on LoCoMo: every turn becomes a memory (one namespace per conversation), every
 * category 1–4 question a query. recall@k = |evidence ∩ externalIds of the top k| / |evidence|.
 * The full pipeline and the vector-only and keyword-only baselines run side by side over the
 * same stored data. Usage: npm run bench:locomo [-- <dir>] [--json] [--variants] [--only a,b]
 * [--conversations N]. Runs on the benchmarks' own Neo4j (test/bench/perf-harness.ts).
 */
import { fileURLToPath } from 'node:url';
import type { Services } from '../../src/app.js';
import type { RecallSettingsOverrides } from '../../src/recall/config.js';
import type { RecallPresetName } from '../../src/recall/presets.js';
import { benchServices, machineFacts, progress, startBenchDb } from './perf-harness.js';
import { loadConfigurations } from './locomo-configurations.js';
import { loadConversations, type Conversation } from './locomo-data.js';

const KS = [5, 10, 20] as const;
const BATCH = 100;
const CATEGORY_NAMES: Record<number, string> = { 1: 'multi-hop', 2: 'temporal', 3: 'open-domain', 4: 'single-hop' };

interface Scores {
  'recall@5': number;
  'recall@10': number;
  'recall@20': number;
  questions: number;
  byCategory: Record<string, { 'recall@5': number; 'recall@10': number; 'recall@20': number; questions: number }>;
}

const args = process.argv.slice(2);
const json = args.includes('--json');
const withVariants = args.includes('--variants');
const option = (name: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const conversationLimit = Number(option('--conversations')) || Infinity;
const only = option('--only')?.split(',');
const dir = args.find((a, i) => !a.startsWith('--') && !['--conversations', '--only'].includes(args[i - 1]!)) ?? fileURLToPath(new URL('../../../shared/bench/locomo', import.meta.url));

async function main(): Promise<void> {
  const conversations = (await loadConversations(dir)).slice(0, conversationLimit);
  const db = await startBenchDb();
  let bench: Awaited<ReturnType<typeof benchServices>> | undefined;
  try {
    bench = await benchServices(db);
    const { services } = bench;
    const ingest = await ingestAll(services, conversations);
    const configurations = Object.fromEntries(Object.entries(loadConfigurations(withVariants)).filter(([name]) => !only || only.includes(name)));
    const results: Record<string, Scores & { meanLatencyMs: number }> = {};
    for (const [name, configuration] of Object.entries(configurations)) {
      progress(`running ${name} over ${conversations.reduce((n, c) => n + c.questions.length, 0)} questions`);
      results[name] = await evaluate(services, conversations, ingest.externalIds, configuration.preset, configuration.overrides);
      progress(`${name}: recall@5 ${results[name]['recall@5']}, @10 ${results[name]['recall@10']}, @20 ${results[name]['recall@20']}`);
    }
    const report = { dataset: dir, conversations: conversations.length, memories: ingest.memories, turns: ingest.turns, ingestSeconds: ingest.seconds, ...results, machine: await machineFacts(services, db) };
    if (json) process.stdout.write(`${JSON.stringify(report)}\n`);
    else printTable(report, Object.keys(results));
  } finally {
    await bench?.close();
    await db.stop();
  }
}

async function ingestAll(services: Services, conversations: Conversation[]) {
  const started = performance.now();
  const externalIds = new Map<string, string[]>(); // memory id → dia_ids it stands for (dedup merges repeats)
  let turns = 0;
  for (const conversation of conversations) {
    for (let i = 0; i < conversation.turns.length; i += BATCH) {
      const batch = conversation.turns.slice(i, i + BATCH);
      const outcomes = await services.remember.rememberBatch(batch.map((t) => ({ ...t, namespace: namespaceOf(conversation) })));
      outcomes.forEach((o, j) => {
        if (o.error) throw new Error(`${conversation.id} ${batch[j]!.externalId}: ${o.error.message}`);
        externalIds.set(o.result.memory.id, [...(externalIds.get(o.result.memory.id) ?? []), batch[j]!.externalId]);
      });
      turns += batch.length;
    }
    progress(`ingested ${conversation.id}: ${conversation.turns.length} turns (${turns} total, ${(turns / ((performance.now() - started) / 1000)).toFixed(0)}/s)`);
  }
  return { externalIds, turns, memories: externalIds.size, seconds: round((performance.now() - started) / 1000, 1) };
}

async function evaluate(services: Services, conversations: Conversation[], externalIds: Map<string, string[]>, preset: RecallPresetName, overrides: RecallSettingsOverrides) {
  const perQuestion: Array<{ category: number; hits: Record<number, number> }> = [];
  let latency = 0;
  for (const conversation of conversations) {
    for (const q of conversation.questions) {
      const outcome = await services.recall.recall({ query: q.question, namespace: namespaceOf(conversation), limit: 20, tokenBudget: null, preset, overrides, trackAccess: false });
      latency += outcome.tookMs;
      const ranked = outcome.items.flatMap((item) => [externalIds.get(item.memory.id) ?? []]);
      const hits: Record<number, number> = {};
      for (const k of KS) {
        const found = new Set(ranked.slice(0, k).flat());
        hits[k] = q.evidence.filter((e) => found.has(e)).length / q.evidence.length;
      }
      perQuestion.push({ category: q.category, hits });
    }
  }
  return { ...summarize(perQuestion), meanLatencyMs: round(latency / Math.max(1, perQuestion.length), 1) };
}

function summarize(rows: Array<{ category: number; hits: Record<number, number> }>): Scores {
  const mean = (list: typeof rows) => {
    const at = (k: number) => round(list.reduce((s, r) => s + r.hits[k]!, 0) / Math.max(1, list.length), 3);
    return { 'recall@5': at(5), 'recall@10': at(10), 'recall@20': at(20), questions: list.length };
  };
  const byCategory = Object.fromEntries(
    Object.entries(CATEGORY_NAMES).map(([category, name]) => [name, mean(rows.filter((r) => r.category === Number(category)))]),
  );
  return { ...mean(rows), byCategory };
}

function printTable(report: Record<string, unknown>, names: string[]): void {
  const rows = names.map((n) => [n, report[n] as Scores & { meanLatencyMs: number }] as const);
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(26) : c.padStart(10))).join(' ');
  console.log(`LoCoMo recall — ${report.conversations} conversations, ${report.turns} turns → ${report.memories} memories, ingest ${report.ingestSeconds} s`);
  console.log(line(['configuration', 'recall@5', 'recall@10', 'recall@20', 'questions', 'ms/query']));
  for (const [name, s] of rows) console.log(line([name, fmt(s['recall@5']), fmt(s['recall@10']), fmt(s['recall@20']), String(s.questions), fmt(s.meanLatencyMs, 1)]));
  for (const category of Object.values(CATEGORY_NAMES)) {
    console.log(`\n${category}`);
    for (const [name, s] of rows) {
      const c = s.byCategory[category]!;
      console.log(line([`  ${name}`, fmt(c['recall@5']), fmt(c['recall@10']), fmt(c['recall@20']), String(c.questions), '']));
    }
  }
  const full = report.full as Scores | undefined;
  if (full && report.vector && report.keyword) {
    const best = Math.max((report.vector as Scores)['recall@10'], (report.keyword as Scores)['recall@10']);
    console.log(`\nfull recall@10 − best baseline = ${fmt(full['recall@10'] - best)} (target ≥ 0.080)`);
  }
  console.log(`machine: ${JSON.stringify(report.machine)}`);
}

const namespaceOf = (c: Conversation) => `locomo-${c.id}`;
const round = (n: number, digits: number) => Math.round(n * 10 ** digits) / 10 ** digits;
const fmt = (n: number, digits = 3) => n.toFixed(digits);

main().catch((error) => {
  process.stderr.write(`bench:locomo failed: ${(error as Error).stack ?? error}\n`);
  process.exit(1);
});
