/**
 * `npm run bench:hooks [-- --sessions 5 --prompts 12 --json]`: the Claude Code plugin's hook
 * latency, per event, as Claude Code sees it — each hook command of
 * integrations/claude-code/hooks/hooks.json as shipped, run through a shell (Node start-up, stdin,
 * one GraphQL request, exit) against the service in a process of its own. Scripted sessions:
 * SessionStart, then per prompt a UserPromptSubmit and a PostToolUse, a PreCompact, a SessionEnd
 * with its transcript. Prints p50/p95/max per event, plus the same hooks with the service stopped
 * (fail-open: the time to give up).
 *
 * The bench Neo4j (perf-harness: .neo4j/bench, wiped at start), or BENCH_NEO4J_URI (+ BENCH_NEO4J_PASSWORD),
 * whose run namespace is removed afterwards.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { pino } from 'pino';
import type { Services } from '../../src/app.js';
import { createDriver, Executor } from '../../src/db/index.js';
import { hookRunner, Transcript, type HookEvent, type HookRun } from '../support/claude-code-hooks.js';
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
    json: { type: 'boolean', default: false },
  },
});
const SESSIONS = positiveInt('sessions', opts.sessions, 5);
const PROMPTS = positiveInt('prompts', opts.prompts, 12);
const EVENTS: HookEvent[] = ['SessionStart', 'UserPromptSubmit', 'PostToolUse', 'PreCompact', 'SessionEnd'];
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
          tool_response: { stdout, stderr: '', interrupted: false, isImage: false },
        }),
      );
    }
    record(await runHook('PreCompact', { ...base, trigger: 'auto', custom_instructions: '' }));
    record(await runHook('SessionEnd', { ...base, reason: 'prompt_input_exit' }));
  }
  return times;
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
    const env = { MNEMOGRAPH_URL: new URL(service.url!).origin, MNEMOGRAPH_NAMESPACE: namespace };
    const hooks = hookRunner({ env, projectDir: dir });

    progress(`warming up (one session), then ${SESSIONS} sessions of ${PROMPTS} prompts…`);
    await scriptedSessions(hooks.run, dir, 'warm');
    const up = rows(await scriptedSessions(hooks.run, dir, 'up'));

    progress('the same hooks with the service stopped (fail-open)…');
    await service.stop('SIGTERM');
    service = null;
    const down = rows(await scriptedSessions(hooks.run, dir, 'down'));

    const result = { bench: 'hooks', sessions: SESSIONS, prompts: PROMPTS, machine, serviceUp: up, serviceDown: down };
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
    console.log('\nhook latency, service up (a whole hook command: shell, Node start-up, stdin, one request):');
    console.log(lines('event', up));
    console.log('\nservice stopped (fail-open: every hook exits 0):');
    console.log(lines('event', down));
  } finally {
    await service?.stop('SIGKILL');
    if (db.external) await cleanNamespace({ executor } as unknown as Services, namespace).catch(() => undefined);
    await executor.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
