/**
 * bench:deep — the deep path over LoCoMo conversations with a fake model server answering every
 * call by the JSON Schema it was sent (structured outputs), at a small model's speed (400 prompt
 * and 25 eval tokens/s): extraction, decisions, classification, near-duplicates, then compression
 * of every session. Once per provider (`--providers ollama,openai,anthropic`, each against its
 * protocol-faithful fake, through the real provider and LLM_PROVIDER's configuration), in
 * namespaces of its own; `chain` is LLM_PROVIDER=ollama,openai with Ollama down (connection
 * refused) and the OpenAI fake answering. Prints model calls, tokens and durations per job kind,
 * from the Job nodes (what pipelineStatus sums), and per provider the calls the server saw, the
 * ones it refused (`--fail-every N`: every Nth call answered 429 with Retry-After, 503 for
 * Ollama), the jobs that failed, and which provider and model answered each job (its llmModel).
 * Quality needs a real model; these figures show what the accounting sees. `--json`: one JSON
 * document on stdout (progress on stderr).
 *
 *   npm run bench:deep -- <locomo dir> --conversations 1 [--max-turns 80] [--time-scale 0.02] [--hints]
 *     [--providers ollama,openai,anthropic,chain] [--fail-every 25] [--json]
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
import { startFakeAnthropic } from '../support/fake-anthropic.js';
import { closedPort } from '../support/fake-http.js';
import { requestSchema, type FakeApiReply, type FakeApiRequest, type FakeModelApi } from '../support/fake-model-api.js';
import { startFakeOllama, DEFAULT_FAKE_SPEED, fakeTokenCount, type FakeOllama, type FakeReply } from '../support/fake-ollama.js';
import { startFakeOpenAi } from '../support/fake-openai.js';
import { answerBySchema, matchesSchema } from '../support/schema-answer.js';
import { loadDataset } from './locomo-data.js';
import { benchServices, int, progress, routeConsoleToStderr, table, uptimeLine } from './perf-harness.js';

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
    providers: { type: 'string', default: 'ollama' },
    'fail-every': { type: 'string', default: '0' },
    json: { type: 'boolean', default: false },
  },
  strict: true,
});
const folder = positionals[0] ?? process.env.BENCH_LOCOMO_DIRS?.split(',')[0] ?? '';
if (!folder)
  throw new Error('name the LoCoMo folder: npm run bench:deep -- <locomo dir> (or BENCH_LOCOMO_DIRS=<dir>); see docs/model-servers.md');
const conversations = Number(args.conversations ?? 1);
const maxTurns = args['max-turns'] ? Number(args['max-turns']) : Number.POSITIVE_INFINITY;
const timeScale = Number(args['time-scale'] ?? 0.02);
const PROVIDERS = ['ollama', 'openai', 'anthropic', 'chain'] as const;
type BenchProvider = (typeof PROVIDERS)[number];
const providers = args.providers!.split(',').map((p) => p.trim()) as BenchProvider[];
for (const p of providers) if (!PROVIDERS.includes(p)) throw new Error(`--providers: ${p} is not one of ${PROVIDERS.join(', ')}`);
const failEvery = Number(args['fail-every']);
if (args.json) routeConsoleToStderr();

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

function answer(request: { prompt: string }, schema: Record<string, unknown> | null): string {
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

/** A fake model server for one provider: its URL and key in LLM_PROVIDER's settings, what it saw, and its close. */
interface FakeServer {
  settings: Record<string, unknown>;
  /** Model calls received (refused ones included) and how many were refused; calls that carried no JSON Schema. */
  calls(): { received: number; refused: number; withoutSchema: number };
  close(): Promise<void>;
}

/** Every `failEvery`th call is refused with 429 and a Retry-After of 0.2 s (as a rate-limited server does). */
function refuses(n: number): boolean {
  return failEvery > 0 && n % failEvery === 0;
}

async function startFakeServer(provider: BenchProvider): Promise<FakeServer> {
  if (provider === 'ollama') {
    let n = 0;
    let refused = 0;
    const fake: FakeOllama = await startFakeOllama({
      models: ['qwen3:4b'],
      realTime: true,
      timeScale,
      script: (request): FakeReply => {
        n += 1;
        if (refuses(n)) {
          refused += 1;
          return { status: 503, error: 'server busy' };
        }
        return answer(request, request.format as Record<string, unknown>);
      },
    });
    return {
      settings: { LLM_PROVIDER: ['ollama'], OLLAMA_HOST: fake.url, OLLAMA_MODEL: 'qwen3:4b' },
      calls: () => ({
        received: fake.requests.length,
        refused,
        withoutSchema: fake.requests.filter((r) => typeof r.format !== 'object' || r.format === null).length,
      }),
      close: () => fake.close(),
    };
  }
  let n = 0;
  let refused = 0;
  // The hosted fakes answer after the time the same tokens take the fake Ollama (scaled alike).
  const script = (request: FakeApiRequest): FakeApiReply => {
    n += 1;
    if (refuses(n)) {
      refused += 1;
      return { status: 429, message: 'Rate limit reached; try again shortly.', headers: { 'retry-after-ms': '200', 'retry-after': '1' } };
    }
    const text = answer(request, requestSchema(request));
    const modelMs =
      (fakeTokenCount(JSON.stringify(request.body)) / DEFAULT_FAKE_SPEED.promptTokensPerSecond +
        fakeTokenCount(text) / DEFAULT_FAKE_SPEED.evalTokensPerSecond) *
      1000;
    return { text, delayMs: Math.round(modelMs * timeScale) };
  };
  const fake: FakeModelApi & { apiKey: string } =
    provider === 'anthropic' ? await startFakeAnthropic({ script }) : await startFakeOpenAi({ script });
  const openai = { OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: fake.apiKey, LLM_MODEL: 'gpt-4o-mini' };
  const settings =
    provider === 'anthropic'
      ? { LLM_PROVIDER: ['anthropic'], ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: fake.apiKey, LLM_MODEL: 'claude-haiku-4-5' }
      : provider === 'chain'
        ? // Ollama first, down: every call is refused a connection there and answered by the OpenAI fake.
          { LLM_PROVIDER: ['ollama', 'openai'], OLLAMA_HOST: `http://127.0.0.1:${await closedPort()}`, OLLAMA_MODEL: 'qwen3:4b', ...openai }
        : { LLM_PROVIDER: ['openai'], ...openai };
  return {
    settings,
    calls: () => ({
      received: fake.requests.length,
      refused,
      withoutSchema: fake.requests.filter((r) => requestSchema(r) === null).length,
    }),
    close: () => fake.close(),
  };
}

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

interface ProviderRun {
  provider: BenchProvider;
  model: string;
  memories: number;
  writeMs: number;
  deepMs: number;
  compressMs: number;
  /** What the fake server saw. */
  server: { received: number; refused: number; withoutSchema: number };
  figures: KindRow[];
  total: {
    jobs: number;
    completed: number;
    dead: number;
    failedAttempts: number;
    calls: number;
    promptTokens: number;
    evalTokens: number;
    modelMs: number;
  };
  /** pipelineStatus's own sums per kind: [kind, calls, tokens]. */
  pipelineStatus: Array<[string, number, number]>;
  /** Jobs per answering model, as recorded on each job (llmModel): [model, jobs]. */
  answeredBy: Array<[string | null, number]>;
}

const FAILED_ATTEMPTS = `MATCH (j:Job) WHERE j.namespace IN $namespaces AND j.failedAt IS NOT NULL RETURN count(j) AS n`;

/** Which provider and model answered each job (the last call of its last attempt; null: no call). */
const ANSWERED_BY = `MATCH (j:Job) WHERE j.namespace IN $namespaces RETURN j.llmModel AS model, count(j) AS jobs ORDER BY jobs DESC`;

type Bench = Awaited<ReturnType<typeof benchServices>>;
type Conversation = Awaited<ReturnType<typeof loadDataset>>['conversations'][number];

/** The deep path of these conversations with one provider, in namespaces of its own; its figures. */
async function runProvider(provider: BenchProvider, bench: Bench, picked: readonly Conversation[]): Promise<ProviderRun> {
  const { services } = bench;
  const fake = await startFakeServer(provider);
  const namespaces = picked.map((c) => `deep-bench-${provider}-${c.id}`);
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
      HINTS_ENABLED: args.hints ?? false,
      ...fake.settings,
    },
    logger: services.logger,
    namespaces,
  });
  try {
    const writeStarted = performance.now();
    const memories = await storeTurns(bench, picked, namespaces);
    const writeMs = performance.now() - writeStarted;
    progress(`${provider}: stored ${int(memories)} memories in ${(writeMs / 1000).toFixed(1)} s; worker started`);
    const drain = async (label: string) => {
      const t0 = performance.now();
      worker.start();
      for (;;) {
        const [open] = await services.executor.read<{ n: number }>('bench.open', OPEN_JOBS, { namespaces });
        if (Number(open!.n) === 0) break;
        progress(`${provider} ${label}: ${int(Number(open!.n))} jobs open, ${int(fake.calls().received)} model calls so far`);
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
    progress(`${provider} compression: ${queued} sessions queued`);
    const compressMs = await drain('compression');

    const rows = await services.executor.read<KindRow & Record<string, unknown>>('bench.jobs', JOB_FIGURES, { namespaces });
    const [failed] = await services.executor.read<{ n: number }>('bench.failed', FAILED_ATTEMPTS, { namespaces });
    const answeredBy = await services.executor.read<{ model: string | null; jobs: number }>('bench.answered', ANSWERED_BY, { namespaces });
    const usage = await Promise.all(namespaces.map((ns) => llmUsage(services.executor, ns)));
    const figures = rows.map((r) =>
      Object.fromEntries(Object.entries(r).map(([k, v]) => [k, typeof v === 'string' ? v : Number(v)])),
    ) as unknown as KindRow[];
    const sum = (key: keyof KindRow) => figures.reduce((t, r) => t + Number(r[key]), 0);
    return {
      provider,
      model:
        provider === 'chain'
          ? `${String(fake.settings.OLLAMA_MODEL)} (down), then ${String(fake.settings.LLM_MODEL)}`
          : String(fake.settings.LLM_MODEL ?? fake.settings.OLLAMA_MODEL),
      memories,
      writeMs,
      deepMs,
      compressMs,
      server: fake.calls(),
      figures,
      total: {
        jobs: sum('jobs'),
        completed: sum('completed'),
        dead: sum('dead'),
        failedAttempts: Number(failed!.n),
        calls: sum('calls'),
        promptTokens: sum('promptTokens'),
        evalTokens: sum('evalTokens'),
        modelMs: sum('modelMs'),
      },
      pipelineStatus: usage.flatMap((u) =>
        u.byKind.map((k): [string, number, number] => [k.kind, Number(k.calls), Number(k.promptTokens) + Number(k.evalTokens)]),
      ),
      answeredBy: answeredBy.map((a): [string | null, number] => [a.model, Number(a.jobs)]),
    };
  } finally {
    await worker.stop();
    await fake.close();
  }
}

/** The conversations' turns, stored as a client would (batches of 50); how many memories. */
async function storeTurns(bench: Bench, picked: readonly Conversation[], namespaces: readonly string[]): Promise<number> {
  let memories = 0;
  for (const [n, conversation] of picked.entries()) {
    const turns = conversation.turns.slice(0, maxTurns);
    for (let i = 0; i < turns.length; i += 50) {
      const outcomes = await bench.services.remember.rememberBatch(
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
  return memories;
}

function printRun(run: ProviderRun): void {
  const { total, server } = run;
  console.log(`\n## ${run.provider} (${run.model}): ${int(run.memories)} memories`);
  console.log(
    `write path ${(run.writeMs / 1000).toFixed(1)} s, deep path drained in ${(run.deepMs / 1000).toFixed(1)} s, compression in ${(run.compressMs / 1000).toFixed(1)} s`,
  );
  console.log(
    `server saw ${int(server.received)} model calls: ${int(server.refused)} refused on purpose, ${server.withoutSchema} without a JSON Schema; ${int(total.failedAttempts)} jobs failed an attempt, ${int(total.dead)} dead\n`,
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
      run.figures.map((r) => [
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
    `\ntotal: ${int(total.calls)} calls, ${int(total.promptTokens)} prompt + ${int(total.evalTokens)} eval tokens = ${int((total.promptTokens + total.evalTokens) / Math.max(1, run.memories))} tokens per stored memory; ${(total.modelMs / 3_600_000).toFixed(2)} h of model time (${(total.modelMs / 1000 / Math.max(1, run.memories)).toFixed(1)} s per memory)`,
  );
  console.log(`pipelineStatus (llmUsage) per kind agrees: ${JSON.stringify(run.pipelineStatus)}`);
  console.log(
    `jobs per answering model (llmModel): ${run.answeredBy.map(([model, jobs]) => `${model ?? 'none'} ${int(jobs)}`).join(', ')}`,
  );
}

async function main(): Promise<void> {
  const started = performance.now();
  const dataset = await loadDataset(folder);
  const picked = dataset.conversations.slice(0, conversations);
  progress(
    `${dataset.name}: ${picked.length} conversation(s), ${picked.reduce((n, c) => n + Math.min(c.turns.length, maxTurns), 0)} turns; providers ${providers.join(', ')}; fake model at ${DEFAULT_FAKE_SPEED.promptTokensPerSecond}/${DEFAULT_FAKE_SPEED.evalTokensPerSecond} tok/s, waits scaled ×${timeScale}${failEvery > 0 ? `, every ${failEvery}th call refused` : ''}`,
  );
  await stopNeo4j(DB).catch(() => undefined);
  rmSync(join(DB.home, 'data'), { recursive: true, force: true });
  const running = await startNeo4j(DB);
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
  try {
    const runs: ProviderRun[] = [];
    for (const provider of providers) runs.push(await runProvider(provider, bench, picked));
    const totalS = (performance.now() - started) / 1000;
    if (args.json) {
      process.stdout.write(
        `${JSON.stringify({ dataset: dataset.name, conversations: picked.map((c) => c.id), timeScale, failEvery, offSchema: offSchema.length, uptime: uptimeLine(), totalS, runs }, null, 2)}\n`,
      );
      return;
    }
    console.log(`\n# bench:deep — ${dataset.name}, ${picked.map((c) => c.id).join(', ')}; total ${totalS.toFixed(1)} s`);
    console.log(
      `fake servers at ${DEFAULT_FAKE_SPEED.promptTokensPerSecond} prompt / ${DEFAULT_FAKE_SPEED.evalTokensPerSecond} eval tokens/s, answering by the schema sent (waits ×${timeScale}); ${offSchema.length} answers off their schema; ${uptimeLine()}`,
    );
    for (const run of runs) printRun(run);
    console.log('\n## per provider\n');
    console.log(
      table(
        [
          'provider',
          'memories',
          'calls (server)',
          'refused',
          'failed attempts',
          'dead',
          'calls (jobs)',
          'prompt tok',
          'eval tok',
          'tok/memory',
          'answered by (jobs)',
        ],
        runs.map((r) => [
          r.provider,
          int(r.memories),
          int(r.server.received),
          int(r.server.refused),
          int(r.total.failedAttempts),
          int(r.total.dead),
          int(r.total.calls),
          int(r.total.promptTokens),
          int(r.total.evalTokens),
          int((r.total.promptTokens + r.total.evalTokens) / Math.max(1, r.memories)),
          r.answeredBy.map(([model, jobs]) => `${model ?? 'none'} ${int(jobs)}`).join(', '),
        ]),
      ),
    );
  } finally {
    await bench.close();
    await stopNeo4j(DB).catch((error: Error) => progress(`could not stop Neo4j: ${error.message}`));
  }
}

main().catch((error: Error) => {
  process.stderr.write(`[bench] failed: ${error.stack ?? String(error)}\n`);
  process.exitCode = 1;
});
