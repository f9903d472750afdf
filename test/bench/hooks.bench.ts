/**
 * `npm run bench:hooks [-- --sessions 5 --prompts 12 --flush 200 --json]`: the Claude Code
 * plugin's hook latency, per event, as Claude Code sees it — each hook command of
 * integrations/claude-code/hooks/hooks.json as shipped, run through a shell (Node start-up, stdin,
 * the outbox, exit) against the service in a process of its own. Scripted sessions:
 * SessionStart, then per prompt a UserPromptSubmit, a PostToolUse and a Stop, a PreCompact, a
 * SessionEnd with its transcript. Prints p50/p95/max per event with the service up, slow (a proxy
 * that holds every answer 3 s) and stopped; then the outbox's flush rate: `--flush` events
 * journaled while the service was away, sent by one flusher once it is back.
 *
 * The bench Neo4j (perf-harness: .neo4j/bench, wiped at start), or BENCH_NEO4J_URI (+ BENCH_NEO4J_PASSWORD),
 * whose run namespace is removed afterwards.
 */
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer, request as httpRequest, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { pino } from 'pino';
import type { Services } from '../../src/app.js';
import { createDriver, Executor } from '../../src/db/index.js';
import { hookRunner, PLUGIN_ROOT, Transcript, type HookEvent, type HookRun } from '../support/claude-code-hooks.js';
import { forkService, type ServiceChild } from '../support/processes.js';
import {
  cleanNamespace,
  machineFacts,
  machineLines,
  MODEL_DIR,
  positiveInt,
  progress,
  routeConsoleToStderr,
  runBench,
  summarize,
  table,
  type Summary,
} from './perf-harness.js';

const { values: opts } = parseArgs({
  options: {
    sessions: { type: 'string', default: '5' },
    prompts: { type: 'string', default: '12' },
    flush: { type: 'string', default: '200' },
    json: { type: 'boolean', default: false },
  },
});
const SESSIONS = positiveInt('sessions', opts.sessions, 5);
const PROMPTS = positiveInt('prompts', opts.prompts, 12);
const FLUSH = positiveInt('flush', opts.flush, 200);
const EVENTS: HookEvent[] = ['SessionStart', 'UserPromptSubmit', 'PostToolUse', 'Stop', 'PreCompact', 'SessionEnd'];
/** How long the slow service holds each answer (past every request budget but the start's). */
const SLOW_MS = 3_000;
const TOOL_OUTPUTS = [
  'FAIL exporter.test.ts: the S3 upload timed out after 30 s; the exporter gives up after 3 retries.',
  'bucket: acme-invoice-exports-eu\nschedule: "0 2 * * 1"\nretries: 3',
  'src/exporter.ts:42: const RETRY_BUDGET = 3; // upload attempts before the export is marked failed',
  'deploy finished: billing-exporter v2.14.1 rolled out to eu-west-1 in 48 s',
];

if (opts.json) routeConsoleToStderr();

async function scriptedSessions(
  runHook: (event: HookEvent, payload: Record<string, unknown>) => Promise<HookRun[]>,
  dir: string,
  tag: string,
): Promise<Map<HookEvent, number[]>> {
  const times = new Map<HookEvent, number[]>(EVENTS.map((e) => [e, []]));
  const record = (runs: HookRun[]) => {
    for (const r of runs) {
      if (r.code !== 0) throw new Error(`${r.event} exited ${r.code}: ${r.stderr}`);
      times.get(r.event)!.push(r.ms);
    }
  };
  for (let s = 0; s < SESSIONS; s += 1) {
    const transcript = new Transcript(join(dir, `${tag}-${s}.jsonl`));
    const base = { session_id: `bench-${tag}-${s}-${randomUUID()}`, transcript_path: transcript.path };
    record(await runHook('SessionStart', { ...base, source: 'startup' }));
    for (let p = 0; p < PROMPTS; p += 1) {
      const prompt = `Question ${p + 1} about the invoice exporter's S3 upload and its retries`;
      transcript.user(prompt);
      record(await runHook('UserPromptSubmit', { ...base, prompt }));
      const stdout = `${TOOL_OUTPUTS[p % TOOL_OUTPUTS.length]} (session ${s}, step ${p})`;
      transcript.assistant('Running the tests.', { name: 'Bash', input: { command: 'npm test' } });
      record(
        await runHook('PostToolUse', {
          ...base,
          tool_name: 'Bash',
          tool_input: { command: 'npm test' },
          tool_use_id: `toolu_${s}_${p}`,
          tool_response: { stdout, stderr: '', interrupted: false, isImage: false },
        }),
      );
      record(await runHook('Stop', { ...base, stop_hook_active: false }));
    }
    record(await runHook('PreCompact', { ...base, trigger: 'auto', custom_instructions: '' }));
    record(await runHook('SessionEnd', { ...base, reason: 'prompt_input_exit' }));
  }
  return times;
}

/** A proxy that forwards every request to the service and holds its answer `delayMs`. */
async function slowProxy(target: URL, delayMs: number): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    const upstream = httpRequest(
      { host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers },
      (answer) => {
        const parts: Buffer[] = [];
        answer.on('data', (c: Buffer) => parts.push(c));
        answer.on('end', () =>
          setTimeout(() => {
            if (res.destroyed) return;
            res.writeHead(answer.statusCode ?? 502, answer.headers);
            res.end(Buffer.concat(parts));
          }, delayMs),
        );
      },
    );
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, server };
}

/** Pending entries of every project's outbox under a plugin data folder. */
function outboxDepth(data: string): number {
  let n = 0;
  for (const p of readdirSync(join(data, 'projects')))
    n += readdirSync(join(data, 'projects', p, 'outbox')).filter((f) => f.endsWith('.json')).length;
  return n;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until no detached flusher of the earlier hooks holds an outbox's lock. */
async function quiet(data: string): Promise<void> {
  for (let i = 0; i < 200; i += 1) {
    const locked = readdirSync(join(data, 'projects')).some((p) => readdirSync(join(data, 'projects', p)).includes('flush.lock'));
    if (!locked) return;
    await sleep(100);
  }
}

function rows(times: Map<HookEvent, number[]>): Record<string, Summary> {
  return Object.fromEntries([...times].map(([event, values]) => [event, summarize(values)]));
}

await runBench(async (db) => {
  const namespace = `bench-hooks-${randomUUID().slice(0, 8)}`;
  const dir = mkdtempSync(join(tmpdir(), 'mnemograph-bench-hooks-'));
  let service: ServiceChild | null = null;
  const executor = new Executor(
    createDriver({ uri: db.uri, user: 'neo4j', password: db.password, database: 'neo4j' }),
    'neo4j',
    pino({ level: 'silent' }),
  );
  try {
    progress('starting the service process (migrations, model)…');
    service = await forkService({
      NEO4J_URI: db.uri,
      NEO4J_PASSWORD: db.password,
      HOST: '127.0.0.1',
      PORT: '0',
      WORKER_ENABLED: 'false',
      LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
      EMBEDDING_MODEL_DIR: process.env.EMBEDDING_MODEL_DIR ?? MODEL_DIR,
    });
    const machine = await machineFacts({ executor } as unknown as Services, db);
    const origin = new URL(service.url!).origin;
    const data = (tag: string) => mkdtempSync(join(dir, `data-${tag}-`));
    // Flushers run detached: a phase's last ones finish before the next phase starts.
    const phase = async (tag: string, url: string, extra: Record<string, string> = {}) => {
      const pluginData = data(tag);
      const env = { MNEMOGRAPH_URL: url, MNEMOGRAPH_NAMESPACE: namespace, CLAUDE_PLUGIN_DATA: pluginData, ...extra };
      const times = await scriptedSessions(hookRunner({ env, projectDir: dir }).run, dir, tag);
      await quiet(pluginData);
      return { times, pluginData };
    };

    progress(`warming up (one session), then ${SESSIONS} sessions of ${PROMPTS} prompts…`);
    await phase('warm', origin);
    const up = rows((await phase('up', origin)).times);

    progress(`the same hooks with every answer held ${SLOW_MS} ms…`);
    const slow = await slowProxy(new URL(origin), SLOW_MS);
    const slowRows = rows((await phase('slow', slow.url)).times);
    slow.server.closeAllConnections();
    slow.server.close();

    progress(`the outbox's flush rate: ${FLUSH} events journaled while the service was away…`);
    const away = data('flush');
    const journal = hookRunner({
      env: { MNEMOGRAPH_URL: 'http://127.0.0.1:9', MNEMOGRAPH_NAMESPACE: namespace, CLAUDE_PLUGIN_DATA: away },
      projectDir: dir,
    });
    const flushSession = { session_id: `bench-flush-${randomUUID()}`, transcript_path: join(dir, 'flush.jsonl') };
    await journal.run('SessionStart', { ...flushSession, source: 'startup' });
    for (let i = 1; i < FLUSH; i += 1)
      await journal.run('PostToolUse', {
        ...flushSession,
        tool_name: 'Bash',
        tool_input: { command: `step ${i}` },
        tool_use_id: `toolu_flush_${i}`,
        tool_response: { stdout: `${TOOL_OUTPUTS[i % TOOL_OUTPUTS.length]} (flush step ${i})`, stderr: '' },
      });
    await quiet(away);
    const pending = outboxDepth(away);
    const home = join(away, 'projects', readdirSync(join(away, 'projects'))[0]!);
    const started = performance.now();
    spawnSync(process.execPath, [join(PLUGIN_ROOT, 'hooks', 'mnemograph-hook.mjs'), '--flush', home], {
      env: {
        ...process.env,
        MNEMOGRAPH_URL: origin,
        MNEMOGRAPH_NAMESPACE: namespace,
        MNEMOGRAPH_FLUSH_ENTRIES: String(FLUSH),
        MNEMOGRAPH_FLUSH_BUDGET_MS: '600000',
      },
    });
    const flushMs = performance.now() - started;
    const flush = {
      pending,
      sent: pending - outboxDepth(away),
      ms: Math.round(flushMs),
      perSecond: Math.round(((pending - outboxDepth(away)) / flushMs) * 1000 * 10) / 10,
    };

    progress('the same hooks with the service stopped (fail-open)…');
    await service.stop('SIGTERM');
    service = null;
    const down = rows((await phase('down', origin)).times);

    const result = {
      bench: 'hooks',
      sessions: SESSIONS,
      prompts: PROMPTS,
      slowMs: SLOW_MS,
      machine,
      serviceUp: up,
      serviceSlow: slowRows,
      serviceDown: down,
      flush,
    };
    if (opts.json) {
      process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
      return;
    }
    const fmt = (n: number) => n.toFixed(0);
    const lines = (label: string, r: Record<string, Summary>) =>
      table(
        [label, 'n', 'p50 ms', 'p95 ms', 'max ms'],
        EVENTS.map((e) => [e, String(r[e]!.n), fmt(r[e]!.p50), fmt(r[e]!.p95), fmt(r[e]!.max)]),
      );
    console.log(machineLines(machine));
    console.log('\nhook latency, service up (a whole hook command: shell, Node start-up, stdin, the outbox):');
    console.log(lines('event', up));
    console.log(`\nservice slow (every answer held ${SLOW_MS} ms):`);
    console.log(lines('event', slowRows));
    console.log('\nservice stopped (fail-open: every hook exits 0):');
    console.log(lines('event', down));
    console.log(`\noutbox flush: ${flush.sent} of ${flush.pending} pending events sent in ${flush.ms} ms (${flush.perSecond} a second)`);
  } finally {
    await service?.stop('SIGKILL');
    if (db.external) await cleanNamespace({ executor } as unknown as Services, namespace).catch(() => undefined);
    await executor.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
