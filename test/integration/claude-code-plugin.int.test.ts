import { createServer, type Server } from 'node:http';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeServices, type Services } from '../../src/app.js';
import { CHECKPOINTS } from '../../src/sessions/session-checkpoints.js';
import {
  graphqlClient,
  hookRunner,
  outboxDepth,
  pluginServiceEnv,
  Transcript,
  type HookEvent,
  type HookRun,
} from '../support/claude-code-hooks.js';
import { forkService, type ServiceChild } from '../support/processes.js';
import { cleanNamespace, testServices, uniqueNamespace } from '../support/services.js';

/**
 * The Claude Code plugin end to end, from its hooks configuration as shipped
 * (integrations/claude-code/hooks/hooks.json): the hook commands run through a shell, fed the
 * hook payloads Claude Code sends, against the service in a process of its own with its worker.
 * Session 1: a dozen prompts, tool results (one of them an env file holding a password), a
 * compaction, an end with its transcript. Session 2: its start brings back what session 1's
 * tool results taught. Then the service stops, and every hook still exits 0 within its budget.
 */

const CHECKPOINT_MERGE_MS = CHECKPOINTS.mergeWindowMs + 200;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const PASSWORD = 'Tr0ub4dor-hunter2-x9Q';
/** Whether a property's value (a string, or a list holding one) contains $p. */
const HOLDS = (v: string) =>
  `CASE WHEN ${v} IS :: LIST<ANY> THEN any(x IN ${v} WHERE x IS :: STRING AND x CONTAINS $p) ELSE ${v} IS :: STRING AND ${v} CONTAINS $p END`;
const SESSION = `query($ns: String, $s: String!) { session(namespace: $ns, sessionId: $s) {
  status prompts toolResults checkpoints summary { request learned summarizer } } }`;
const CHECKPOINTS_QUERY = `query($ns: String, $s: String!) { checkpoints(namespace: $ns, sessionId: $s, last: 10) { trigger digest } }`;

/** A Bash tool's `tool_response`, as Claude Code sends it in PostToolUse. */
const bashOutput = (stdout: string) => ({ stdout, stderr: '', interrupted: false, isImage: false });

describe('the Claude Code plugin: hooks as shipped against a running service', () => {
  let services: Services;
  let service: ServiceChild | null = null;
  const ns = uniqueNamespace('cc');
  const project = mkdtempSync(join(tmpdir(), 'mnemograph-cc-project-'));
  // The plugin's data folder (its outbox), as Claude Code gives it: ${CLAUDE_PLUGIN_DATA}.
  const pluginData = mkdtempSync(join(tmpdir(), 'mnemograph-cc-data-'));
  const env = pluginServiceEnv(ns);
  let hookEnv: Record<string, string>;
  const gql = graphqlClient(() => hookEnv.MNEMOGRAPH_URL!);

  beforeAll(async () => {
    services = testServices();
    service = await forkService(env);
    hookEnv = {
      MNEMOGRAPH_URL: new URL(service.url!).origin,
      MNEMOGRAPH_NAMESPACE: ns,
      MNEMOGRAPH_API_KEY: '',
      CLAUDE_PLUGIN_DATA: pluginData,
    };
    writeFileSync(join(project, '.env'), `DATABASE_URL=postgres://billing@db.internal:5432/billing\nDATABASE_PASSWORD=${PASSWORD}\n`);
  }, 240_000);

  afterAll(async () => {
    await service?.stop('SIGKILL');
    await cleanNamespace(services, ns);
    await closeServices(services);
    rmSync(project, { recursive: true, force: true });
    rmSync(pluginData, { recursive: true, force: true });
  });

  const expectQuiet = (runs: HookRun[]) => {
    expect(runs.length).toBeGreaterThan(0);
    for (const r of runs) {
      expect(r.code, `${r.event} exit code; stderr: ${r.stderr}`).toBe(0);
      expect(r.ms).toBeLessThan(r.timeoutMs);
      expect(r.stderr).toBe('');
    }
    return runs[0]!;
  };

  it('session 1 is captured (prompts, tool results, a checkpoint, the end); session 2 starts with what it taught; the password is stored nowhere', async () => {
    const hooks = hookRunner({ env: hookEnv, projectDir: project });
    const transcript = new Transcript(join(project, 'session-1.jsonl'));
    const base = { session_id: 'cc-session-1', transcript_path: transcript.path, permission_mode: 'default' };
    const run = (event: HookEvent, payload: Record<string, unknown>) => hooks.run(event, { ...base, ...payload });

    expectQuiet(await run('SessionStart', { source: 'startup', model: 'claude-sonnet-4-5' }));

    // Each tool call's own id, as Claude Code gives it (the outbox's event id: a repeated id is one event).
    let tools = 0;
    const tool = async (name: string, input: Record<string, unknown>, response: unknown) => {
      transcript.assistant(`Running ${name}.`, { name, input });
      return expectQuiet(
        await run('PostToolUse', {
          tool_name: name,
          tool_input: input,
          tool_response: response,
          tool_use_id: `toolu_${name}_${(tools += 1)}`,
        }),
      );
    };
    const prompts = [
      'Why does the invoice exporter fail on Mondays?',
      'Show me the environment configuration of the billing service.',
      'Run the exporter tests.',
      'What does the S3 upload do on a timeout?',
      'Look at the retry settings.',
      'Which bucket does the exporter write to?',
      'Check the cron schedule.',
      'Is the retry budget configurable?',
      'How long does an export take?',
      'Add a note about the timeout to the runbook.',
      'What else could make it fail?',
      'Summarize what we found.',
    ];
    for (const [i, prompt] of prompts.entries()) {
      transcript.user(prompt);
      expectQuiet(await run('UserPromptSubmit', { prompt }));
      if (i === 1)
        await tool(
          'Bash',
          { command: 'cat .env' },
          bashOutput(`DATABASE_URL=postgres://billing@db.internal:5432/billing\nDATABASE_PASSWORD=${PASSWORD}\n`),
        );
      if (i === 2)
        await tool(
          'Bash',
          { command: 'npm test -- exporter' },
          bashOutput(
            'FAIL exporter.test.ts: the S3 upload of the invoice export timed out after 30 s; the exporter gives up after 3 retries.',
          ),
        );
      if (i === 5)
        await tool(
          'Read',
          { file_path: join(project, 'config/exporter.yml') },
          {
            type: 'text',
            file: {
              filePath: join(project, 'config/exporter.yml'),
              content: 'bucket: acme-invoice-exports-eu\nschedule: "0 2 * * 1"\nretries: 3',
              numLines: 3,
              startLine: 1,
              totalLines: 3,
            },
          },
        );
      if (i === 7) {
        // Skipped as configured: the memory tools themselves, the to-do list.
        await tool('mcp__plugin_mnemograph_mnemograph__recall', { query: 'exporter' }, [
          { type: 'text', text: 'recall answer that must not be stored again' },
        ]);
        await tool('TodoWrite', { todos: [] }, { oldTodos: [], newTodos: [{ content: 'fix the exporter', status: 'pending' }] });
      }
      transcript.assistant(`Answer ${i + 1}: looked into it.`);
    }
    // Checkpoints written within 2.5 s of the last one merge into it (a burst is one snapshot): a person takes longer.
    // The hooks send through the outbox: the pause counts from when the service has it all.
    const drained = () => expect.poll(() => outboxDepth(pluginData), { timeout: 30_000, interval: 100 }).toBe(0);
    await drained();
    await sleep(CHECKPOINT_MERGE_MS);
    expectQuiet(await run('PreCompact', { trigger: 'manual', custom_instructions: 'keep the exporter findings' }));
    transcript.user('Thanks, that is all for today.');
    await drained();
    await sleep(CHECKPOINT_MERGE_MS);
    expectQuiet(await run('SessionEnd', { reason: 'prompt_input_exit' }));

    let s1: any;
    await expect
      .poll(async () => (s1 = (await gql<{ session: any }>(SESSION, { ns, s: 'cc-session-1' })).session).summary, {
        timeout: 60_000,
        interval: 500,
      })
      .not.toBeNull();
    expect(s1).toMatchObject({ status: 'ended', prompts: 12, toolResults: 3, checkpoints: 1 });
    // The service saw it all (the hooks that print nothing send through a flusher of their own, so it is
    // read once the summary is there): 12 prompts, the 3 captured tool results, the periodic checkpoint at
    // the 10th prompt, the compaction's.
    const checkpoints = (
      await gql<{ checkpoints: Array<{ trigger: string; digest: string }> }>(CHECKPOINTS_QUERY, { ns, s: 'cc-session-1' })
    ).checkpoints;
    expect(checkpoints.map((c) => c.trigger)).toEqual(expect.arrayContaining(['periodic', 'pre_compaction', 'session_end']));
    expect(checkpoints.find((c) => c.trigger === 'pre_compaction')!.digest).toContain('keep the exporter findings');
    expect(s1.summary).toMatchObject({ summarizer: 'deterministic', request: prompts[0] });

    // Session 2 of the same project: its start leads with what session 1 learned, its tool results first.
    const second = new Transcript(join(project, 'session-2.jsonl'));
    const start = expectQuiet(
      await hooks.run('SessionStart', { session_id: 'cc-session-2', transcript_path: second.path, source: 'startup' }),
    );
    expect(start.json.hookSpecificOutput.hookEventName).toBe('SessionStart');
    const context: string = start.json.hookSpecificOutput.additionalContext;
    const lead = context.indexOf('## What the last session learned (session cc-session-1');
    expect(lead).toBeGreaterThan(0);
    expect(context.indexOf('timed out after 30 s')).toBeGreaterThan(lead);
    expect(context.indexOf('acme-invoice-exports-eu')).toBeGreaterThan(lead);
    expect(context).not.toContain('must not be stored again');
    expect(context).not.toContain(PASSWORD);

    // The password is stored nowhere: no node or relationship property of the whole graph holds it.
    const [hits] = await services.executor.read<{ nodes: number; rels: number }>(
      'test',
      `CALL () { MATCH (n) WHERE any(k IN keys(n) WHERE ${HOLDS('n[k]')}) RETURN count(n) AS nodes }
       CALL () { MATCH ()-[r]->() WHERE any(k IN keys(r) WHERE ${HOLDS('r[k]')}) RETURN count(r) AS rels }
       RETURN nodes, rels`,
      { p: PASSWORD },
    );
    expect(hits).toEqual({ nodes: 0, rels: 0 });
    // The env file's tool result was captured, redacted.
    const [env] = await services.executor.read<{ content: string }>(
      'test',
      `MATCH (m:Memory {namespace: $ns, sessionId: 'cc-session-1'}) WHERE m.content CONTAINS 'DATABASE_PASSWORD' RETURN m.content AS content`,
      { ns },
    );
    expect(env!.content).toContain('DATABASE_PASSWORD=');
    expect(env!.content).not.toContain(PASSWORD);
  }, 240_000);

  it('with prompt memories turned on, the prompt gets its <memory> block, and pasted back as a tool result it stores nothing new', async () => {
    // The whole block is captured (the default bound, 2,000 characters, could cut its last line).
    const hooks = hookRunner({
      env: { ...hookEnv, MNEMOGRAPH_INJECT_PROMPT: '1', MNEMOGRAPH_TOOL_RESULT_CHARS: '20000' },
      projectDir: project,
    });
    const base = { session_id: 'cc-session-2', transcript_path: join(project, 'session-2.jsonl') };
    const prompt = expectQuiet(
      await hooks.run('UserPromptSubmit', { ...base, prompt: 'Why did the invoice export upload to S3 time out?' }),
    );
    const block: string = prompt.json.hookSpecificOutput.additionalContext;
    expect(prompt.json.hookSpecificOutput.hookEventName).toBe('UserPromptSubmit');
    expect(block).toContain('<memory>');
    const count = async () =>
      (
        await services.executor.read<{ n: number }>(
          'test',
          `MATCH (m:Memory {namespace: $ns}) WHERE m.deletedAt IS NULL RETURN count(m) AS n`,
          { ns },
        )
      )[0]!.n;
    const before = await count();
    expectQuiet(
      await hooks.run('PostToolUse', {
        ...base,
        tool_name: 'Bash',
        tool_input: { command: 'cat notes/memory-dump.txt' },
        tool_response: bashOutput(block),
      }),
    );
    expect(await count()).toBe(before);
    const s2 = (await gql<{ session: any }>(SESSION, { ns, s: 'cc-session-2' })).session;
    expect(s2).toMatchObject({ prompts: 1, toolResults: 1 });
  }, 120_000);

  it('fail-open: with the service stopped, slow or refusing, every hook exits 0 within its budget and says nothing', async () => {
    const payloads: Array<[HookEvent, Record<string, unknown>]> = [
      ['SessionStart', { source: 'startup' }],
      ['UserPromptSubmit', { prompt: 'Is anyone there?' }],
      [
        'PostToolUse',
        { tool_name: 'Bash', tool_input: { command: 'ls' }, tool_response: { stdout: 'README.md package.json src test', stderr: '' } },
      ],
      ['PreCompact', { trigger: 'auto', custom_instructions: '' }],
      ['SessionEnd', { reason: 'other' }],
    ];
    const everyHook = async (extra: Record<string, string>) => {
      const hooks = hookRunner({ env: { ...hookEnv, ...extra }, projectDir: project });
      const runs: HookRun[] = [];
      for (const [event, payload] of payloads)
        runs.push(
          ...(await hooks.run(event, { session_id: 'cc-session-3', transcript_path: join(project, 'session-1.jsonl'), ...payload })),
        );
      return runs;
    };

    // Stopped: nothing listens on the port any more.
    await service!.stop('SIGTERM');
    service = null;
    for (const r of await everyHook({})) {
      expectQuiet([r]);
      expect(r.stdout).toBe('');
      expect(r.ms).toBeLessThan(3_000);
    }

    // Slow: a server that accepts and never answers; the hooks give up at their own timeouts.
    const slow: Server = createServer(() => undefined);
    // Refusing: 401 with a GraphQL error, as a key the service does not know gets.
    const refusing: Server = createServer((_, res) => {
      res.writeHead(401, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ errors: [{ message: 'the API key is not recognised', extensions: { code: 'UNAUTHENTICATED' } }] }));
    });
    const listen = (server: Server) =>
      new Promise<string>((resolve) =>
        server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as { port: number }).port}`)),
      );
    try {
      const timeouts = { MNEMOGRAPH_TIMEOUT_MS: '500', MNEMOGRAPH_START_TIMEOUT_MS: '500', MNEMOGRAPH_FLUSH_REQUEST_MS: '500' };
      for (const r of await everyHook({ MNEMOGRAPH_URL: await listen(slow), ...timeouts })) {
        expectQuiet([r]);
        expect(r.stdout).toBe('');
        expect(r.ms).toBeLessThan(2_500);
      }
      for (const r of await everyHook({ MNEMOGRAPH_URL: await listen(refusing), MNEMOGRAPH_API_KEY: 'wrong' })) {
        expectQuiet([r]);
        expect(r.stdout).toBe('');
      }
    } finally {
      slow.closeAllConnections();
      slow.close();
      refusing.close();
    }
  }, 120_000);
});
