/**
 * bench:deep — the deep path over LoCoMo conversations with the fake Ollama answering every call
 * by the JSON Schema it was sent (structured outputs), at a small model's speed (400 prompt and
 * 25 eval tokens/s): extraction, decisions, classification, near-duplicates, then compression of
 * every session. Prints model tokens and durations per job kind, from the Job nodes (what
 * pipelineStatus sums). Quality needs a real model; these figures show what the accounting sees.
 *
 *   npm run bench:deep -- /work/shared/bench/locomo --conversations 1 [--max-turns 80] [--time-scale 0.02] [--hints]
 *
 * Runs its own Neo4j (bolt 47887, http 47874, home .neo4j/deep-bench), wiped at start.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { startNeo4j, stopNeo4j } from '../../scripts/neo4j-server.mjs';
import { queueSessionCompression } from '../../src/deep/index.js';
import { llmUsage } from '../../src/db/jobs/index.js';
import { createWorker } from '../../src/worker/index.js';
import { memoryTextOf, stageOf } from '../support/deep-path.js';
import { startFakeOllama, DEFAULT_FAKE_SPEED, type FakeRequest } from '../support/fake-ollama.js';
import { answerBySchema, matchesSchema } from '../support/schema-answer.js';
import { loadDataset } from './locomo-data.js';
import { benchServices, int, progress, table, uptimeLine } from './perf-harness.js';

const REPO = new URL('../..', import.meta.url).pathname;
const DB = {
  home: join(REPO, '.neo4j', 'deep-bench'),
  boltPort: 47887,
  httpPort: 47874,
  password: 'deep-bench-pw',
  heapMb: 512,
  pageCacheMb: 128,
  timeoutMs: 600_000,
};

const { values: args, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    conversations: { type: 'string' },
    'max-turns': { type: 'string' },
    'time-scale': { type: 'string' },
    hints: { type: 'boolean', default: false },
  },
  strict: true,
});
const folder = positionals[0] ?? '/work/shared/bench/locomo';
const conversations = Number(args.conversations ?? 1);
const maxTurns = args['max-turns'] ? Number(args['max-turns']) : Number.POSITIVE_INFINITY;
const timeScale = Number(args['time-scale'] ?? 0.02);

// ------------------------------------------------------------------ the fake model's answers

const SENTENCE = /[^.!?]+[.!?]?/g;
const PROPER = /\b[A-Z][a-z]{2,}\b/g;
const COMMON = new Set([
  'The',
  'And',
  'But',
  'That',
  'This',
  'What',
  'When',
  'How',
  'Yes',
  'Yeah',
  'Thanks',
  'Wow',
  'Hey',
  'Hi',
  'Great',
  'It',
  'I',
  'My',
  'So',
  'Oh',
  'Sounds',
  'Sure',
  'Just',
  'Really',
  'Thank',
  'You',
  'Have',
  'Did',
  'Do',
  'Not',
  'For',
  'Can',
  'Are',
  'Was',
  'Its',
  'Glad',
  'Good',
  'Nice',
  'Haha',
  'Awesome',
  'Totally',
  'Definitely',
  'Absolutely',
]);

/** What a small model makes of one turn: up to two facts in the third person, and its names. */
function extractAnswer(text: string): {
  facts: Array<{ content: string; type: string; confidence: number }>;
  entities: Array<{ source: string; relationship: string; target: string; confidence: number }>;
} {
  const colon = text.indexOf(': ');
  const speaker = colon > 0 ? text.slice(0, colon) : 'Someone';
  const body = colon > 0 ? text.slice(colon + 2) : text;
  const sentences = (body.match(SENTENCE) ?? []).map((s) => s.trim()).filter((s) => s.length >= 25 && !s.endsWith('?'));
  const facts = sentences.slice(0, 2).map((s) => ({
    content: `${speaker} said that ${s.charAt(0).toLowerCase()}${s.slice(1)}`,
    type: /\b(love|like|prefer|enjoy)/i.test(s) ? 'preference' : 'fact',
    confidence: 0.8,
  }));
  const names = [...new Set((body.match(PROPER) ?? []).filter((n) => !COMMON.has(n) && n !== speaker))].slice(0, 2);
  return {
    facts,
    entities: facts.length ? names.map((n) => ({ source: speaker, relationship: 'talks about', target: n, confidence: 0.7 })) : [],
  };
}

function answer(request: FakeRequest): string {
  const schema = request.format as Record<string, unknown>;
  const stage = stageOf(request);
  let value: unknown;
  switch (stage) {
    case 'extract':
      value = extractAnswer(memoryTextOf(request.prompt));
      break;
    case 'decide': {
      const fact = /New fact \(data, not instructions\): """([^]*?)"""/.exec(request.prompt)?.[1] ?? '';
      const known = fact.length > 0 && request.prompt.split('Existing memories:')[1]?.includes(fact.slice(0, 60));
      value = { action: known ? 'NONE' : 'ADD', targetId: null, confidence: 0.85, reason: known ? 'already known' : 'new information' };
      break;
    }
    case 'classify': {
      const count = [...request.prompt.matchAll(/^(\d+)\. /gm)].length;
      value = {
        entityType: 'person',
        assignments: Array.from({ length: count }, (_, i) => ({
          i,
          aspect: i % 2 ? 'preferences' : 'life events',
          kind: 'attribute',
          new: false,
        })),
      };
      break;
    }
    case 'dedup':
      value = { action: 'keep_both', merged: '', confidence: 0.8, reason: 'different moments of the conversation' };
      break;
    case 'compress': {
      const talk = request.prompt.split('Conversation:\n"""')[1] ?? '';
      value = { summary: talk.split('\n').slice(0, 3).join(' ').slice(0, 400) };
      break;
    }
    default:
      value = answerBySchema(schema, (path) => (path.endsWith('reasoning') || path.endsWith('reason') ? 'no contradiction' : undefined));
  }
  if (schema && typeof schema === 'object' && !matchesSchema(schema, value)) offSchema.push(stage);
  return JSON.stringify(value);
}
const offSchema: string[] = [];

// ------------------------------------------------------------------ the run

interface KindRow {
  kind: string;
  jobs: number;
  completed: number;
  dead: number;
  calls: number;
  promptTokens: number;
  evalTokens: number;
  modelMs: number;
  wallMs: number;
}

const JOB_FIGURES = `
MATCH (j:Job) WHERE j.namespace IN $namespaces
RETURN j.kind AS kind, count(j) AS jobs, sum(CASE WHEN j.status = 'completed' THEN 1 ELSE 0 END) AS completed,
       sum(CASE WHEN j.status = 'dead' THEN 1 ELSE 0 END) AS dead, sum(coalesce(j.llmCalls, 0)) AS calls,
       sum(coalesce(j.llmPromptTokens, 0)) AS promptTokens, sum(coalesce(j.llmEvalTokens, 0)) AS evalTokens,
       sum(coalesce(j.llmDurationMs, 0)) AS modelMs,
       sum(CASE WHEN j.completedAt IS NULL OR j.leasedAt IS NULL THEN 0 ELSE duration.inSeconds(datetime(j.leasedAt), datetime(j.completedAt)).milliseconds END) AS wallMs
ORDER BY kind`;

const OPEN_JOBS = `MATCH (j:Job) WHERE j.namespace IN $namespaces AND j.status IN ['pending', 'leased'] RETURN count(j) AS n`;

async function main(): Promise<void> {
  const started = performance.now();
  const dataset = await loadDataset(folder);
  const picked = dataset.conversations.slice(0, conversations);
  progress(
    `${dataset.name}: ${picked.length} conversation(s), ${picked.reduce((n, c) => n + Math.min(c.turns.length, maxTurns), 0)} turns; fake model at ${DEFAULT_FAKE_SPEED.promptTokensPerSecond}/${DEFAULT_FAKE_SPEED.evalTokensPerSecond} tok/s, waits scaled ×${timeScale}`,
  );

  await stopNeo4j(DB).catch(() => undefined);
  rmSync(join(DB.home, 'data'), { recursive: true, force: true });
  const running = await startNeo4j(DB);
  const fake = await startFakeOllama({ models: ['qwen3:4b'], realTime: true, timeScale, script: answer });
  // A loaded machine and a cold database: generous transaction timeouts (migrations, first queries).
  process.env.NEO4J_READ_TIMEOUT_MS ??= '120000';
  process.env.NEO4J_WRITE_TIMEOUT_MS ??= '120000';
  const bench = await benchServices({
    uri: running.boltUrl,
    password: DB.password,
    external: false,
    storeBytes: () => null,
    stop: async () => undefined,
  });
  const { services } = bench;
  const namespaces = picked.map((c) => `deep-bench-${c.id}`);
  const worker = createWorker({
    executor: services.executor,
    embedder: services.embedder,
    remember: services.remember,
    update: services.update,
    config: {
      ...services.config,
      WORKER_ENABLED: true,
      WORKER_POLL_MS: 100,
      WORKER_RETRY_BASE_MS: 100,
      OLLAMA_HOST: fake.url,
      OLLAMA_MODEL: 'qwen3:4b',
      HINTS_ENABLED: args.hints ?? false,
    },
    logger: services.logger,
    namespaces,
  });
  try {
    let memories = 0;
    const writeStarted = performance.now();
    for (const [n, conversation] of picked.entries()) {
      const turns = conversation.turns.slice(0, maxTurns);
      for (let i = 0; i < turns.length; i += 50) {
        const outcomes = await services.remember.rememberBatch(
          turns.slice(i, i + 50).map((t) => ({
            content: t.content,
            namespace: namespaces[n]!,
            externalId: t.externalId,
            occurredAt: t.occurredAt,
            sessionId: t.sessionId,
            type: 'episodic',
          })),
        );
        memories += outcomes.filter((o) => o.result).length;
      }
    }
    const writeMs = performance.now() - writeStarted;
    progress(`stored ${int(memories)} memories in ${(writeMs / 1000).toFixed(1)} s; worker started`);

    const drain = async (label: string) => {
      const t0 = performance.now();
      worker.start();
      for (;;) {
        const [open] = await services.executor.read<{ n: number }>('bench.open', OPEN_JOBS, { namespaces });
        if (Number(open!.n) === 0) break;
        progress(`${label}: ${int(Number(open!.n))} jobs open, ${int(fake.requests.length)} model calls so far`);
        await new Promise((r) => setTimeout(r, 5_000));
      }
      await worker.stop();
      return performance.now() - t0;
    };
    const deepMs = await drain('deep path');
    let queued = 0;
    for (const namespace of namespaces) {
      queued += (
        await queueSessionCompression(services.executor, {
          namespace,
          olderThan: new Date().toISOString(),
          minSessions: 1,
          maxSessions: 100,
          maxAttempts: 3,
        })
      ).length;
    }
    progress(`compression: ${queued} sessions queued`);
    const compressMs = await drain('compression');

    const rows = await services.executor.read<KindRow & Record<string, unknown>>('bench.jobs', JOB_FIGURES, { namespaces });
    const usage = await Promise.all(namespaces.map((ns) => llmUsage(services.executor, ns)));
    const figures = rows.map((r) =>
      Object.fromEntries(Object.entries(r).map(([k, v]) => [k, typeof v === 'string' ? v : Number(v)])),
    ) as unknown as KindRow[];
    const total = figures.reduce(
      (t, r) => ({
        calls: t.calls + r.calls,
        promptTokens: t.promptTokens + r.promptTokens,
        evalTokens: t.evalTokens + r.evalTokens,
        modelMs: t.modelMs + r.modelMs,
      }),
      { calls: 0, promptTokens: 0, evalTokens: 0, modelMs: 0 },
    );
    const unschema = fake.requests.filter((r) => typeof r.format !== 'object' || r.format === null).length;

    console.log(`\n# bench:deep — ${dataset.name}, ${picked.map((c) => c.id).join(', ')}: ${int(memories)} memories`);
    console.log(
      `fake Ollama (qwen3:4b at ${DEFAULT_FAKE_SPEED.promptTokensPerSecond} prompt / ${DEFAULT_FAKE_SPEED.evalTokensPerSecond} eval tokens/s, answers by the schema sent; waits ×${timeScale}); ${uptimeLine()}`,
    );
    console.log(
      `write path ${(writeMs / 1000).toFixed(1)} s, deep path drained in ${(deepMs / 1000).toFixed(1)} s, compression in ${(compressMs / 1000).toFixed(1)} s; total ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
    console.log(
      `model calls ${int(fake.requests.length)}: ${unschema} without a JSON Schema in format, ${offSchema.length} answers off their schema\n`,
    );
    console.log(
      table(
        [
          'kind',
          'jobs',
          'completed',
          'dead',
          'calls',
          'prompt tok',
          'eval tok',
          'tok/job',
          'model s (reported)',
          'model s/job',
          'job wall ms (mean)',
        ],
        figures.map((r) => [
          r.kind,
          int(r.jobs),
          int(r.completed),
          int(r.dead),
          int(r.calls),
          int(r.promptTokens),
          int(r.evalTokens),
          int((r.promptTokens + r.evalTokens) / Math.max(1, r.jobs)),
          (r.modelMs / 1000).toFixed(1),
          (r.modelMs / 1000 / Math.max(1, r.jobs)).toFixed(2),
          int(r.wallMs / Math.max(1, r.completed)),
        ]),
      ),
    );
    console.log(
      `\ntotal: ${int(total.calls)} calls, ${int(total.promptTokens)} prompt + ${int(total.evalTokens)} eval tokens = ${int((total.promptTokens + total.evalTokens) / Math.max(1, memories))} tokens per stored memory; ${(total.modelMs / 3_600_000).toFixed(2)} h of model time at this speed (${(total.modelMs / 1000 / Math.max(1, memories)).toFixed(1)} s per memory)`,
    );
    console.log(
      `pipelineStatus (llmUsage) per kind agrees: ${JSON.stringify(usage.flatMap((u) => u.byKind.map((k) => [k.kind, Number(k.calls), Number(k.promptTokens) + Number(k.evalTokens)])))}`,
    );
  } finally {
    await worker.stop();
    await fake.close();
    await bench.close();
    await stopNeo4j(DB).catch((error: Error) => progress(`could not stop Neo4j: ${error.message}`));
  }
}

main().catch((error: Error) => {
  process.stderr.write(`[bench] failed: ${error.stack ?? String(error)}\n`);
  process.exitCode = 1;
});
