import { createServer, request as httpRequest, type Server, type ServerResponse } from 'node:http';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeServices, type Services } from '../../src/app.js';
import {
  graphqlClient,
  hookRunner,
  outboxDepth,
  pluginServiceEnv,
  shippedHooks,
  Transcript,
  type HookEvent,
  type HookRun,
} from '../support/claude-code-hooks.js';
import { extraction } from '../support/deep-path.js';
import { startFakeOllama, type FakeOllama } from '../support/fake-ollama.js';
import { forkService, type ServiceChild } from '../support/processes.js';
import { cleanNamespace, testServices, uniqueNamespace } from '../support/services.js';

/**
 * The Claude Code plugin's outbox against the service in a process of its own, behind a proxy
 * the test turns: passing, late (every request reaches the service and is done, its answer held
 * past every budget) and down (connections refused). A scripted session runs through the
 * shipped hooks.json across all three; once the service is back, it holds every prompt and tool
 * result exactly once and the session is ended with its summary. Then the service itself is sent
 * every event twice, interleaved, and applies each once.
 */

type Mode = 'pass' | 'late' | 'down';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const SECRET = 'hunter2-private-token-Zq8';
const SESSION = `query($ns: String, $s: String!) { session(namespace: $ns, sessionId: $s) {
  status prompts toolResults checkpoints summary { request summarizer } } }`;

/** A proxy in front of the service whose behaviour the test sets; it keeps every request body it forwarded. */
class Proxy {
  mode: Mode = 'pass';
  bodies: string[] = [];
  private server: Server | null = null;
  private held: ServerResponse[] = [];
  port = 0;

  constructor(private readonly target: URL) {}

  async listen(): Promise<void> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks);
        this.bodies.push(body.toString('utf8'));
        const late = this.mode === 'late';
        const upstream = httpRequest(
          { host: this.target.hostname, port: this.target.port, path: req.url, method: req.method, headers: req.headers },
          (answer) => {
            const parts: Buffer[] = [];
            answer.on('data', (c: Buffer) => parts.push(c));
            answer.on('end', () => {
              // Late: the work is done, the answer never comes back in time.
              if (late) return void this.held.push(res);
              res.writeHead(answer.statusCode ?? 502, answer.headers);
              res.end(Buffer.concat(parts));
            });
          },
        );
        upstream.on('error', () => res.destroy());
        upstream.end(body);
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(this.port, '127.0.0.1', resolve));
    this.port = (this.server.address() as { port: number }).port;
  }

  async down(): Promise<void> {
    this.mode = 'down';
    this.server?.closeAllConnections();
    await new Promise((resolve) => this.server?.close(resolve));
    this.server = null;
  }

  async up(mode: Mode): Promise<void> {
    if (!this.server) await this.listen();
    this.mode = mode;
  }

  close(): void {
    for (const r of this.held) r.destroy();
    this.server?.closeAllConnections();
    this.server?.close();
  }
}

describe('the Claude Code plugin’s outbox: a service late, then away, loses nothing and counts nothing twice', () => {
  let services: Services;
  let service: ServiceChild | null = null;
  let proxy: Proxy;
  let ollama: FakeOllama | null = null;
  const ns = uniqueNamespace('ccbox');
  const project = mkdtempSync(join(tmpdir(), 'mnemograph-ccbox-project-'));
  const data = mkdtempSync(join(tmpdir(), 'mnemograph-ccbox-data-'));
  let serviceUrl: string;
  const gql = graphqlClient(() => serviceUrl);

  beforeAll(async () => {
    services = testServices();
    // A model that extracts nothing at once (a failing one would back the worker off, and the session-end
    // job would wait behind a dozen failed extractions); the summary is asked of it and falls back to the rules.
    ollama = await startFakeOllama({
      script: (r) => (JSON.stringify(r.format ?? '').includes('facts') ? extraction([]) : { status: 500, error: 'no summaries here' }),
    });
    service = await forkService(pluginServiceEnv(ns, { DEDUP_LLM_ENABLED: 'false', OLLAMA_HOST: ollama.url }));
    serviceUrl = new URL(service.url!).origin;
    proxy = new Proxy(new URL(serviceUrl));
    await proxy.listen();
  }, 240_000);

  afterAll(async () => {
    proxy?.close();
    await service?.stop('SIGKILL');
    await ollama?.close();
    await cleanNamespace(services, ns);
    await closeServices(services);
    rmSync(project, { recursive: true, force: true });
    rmSync(data, { recursive: true, force: true });
  });

  it('a scripted session through the shipped hooks.json: every hook exits 0 inside its timeout; once back, every prompt and tool result is held exactly once', async () => {
    const declared = shippedHooks().hooks;
    expect(declared.PostToolUse![0]!.hooks[0]!.async).toBe(true);
    const hooks = hookRunner({
      env: {
        MNEMOGRAPH_URL: `http://127.0.0.1:${proxy.port}`,
        MNEMOGRAPH_NAMESPACE: ns,
        MNEMOGRAPH_API_KEY: '',
        CLAUDE_PLUGIN_DATA: data,
        // Short budgets so the test is quick; the hook's own deadline still comes from hooks.json.
        MNEMOGRAPH_START_TIMEOUT_MS: '1500',
        MNEMOGRAPH_FLUSH_REQUEST_MS: '1500',
        MNEMOGRAPH_FLUSH_BUDGET_MS: '8000',
        MNEMOGRAPH_STOP_CHECKPOINT_SECONDS: '0',
      },
      projectDir: project,
    });
    const transcript = new Transcript(join(project, 'outbox-session.jsonl'));
    const base = { session_id: 'ccbox-session-1', transcript_path: transcript.path };
    const runs: HookRun[] = [];
    const run = async (event: HookEvent, payload: Record<string, unknown>) => {
      const r = await hooks.run(event, { ...base, ...payload });
      runs.push(...r);
      return r;
    };
    let toolN = 0;
    const step = async (i: number) => {
      const prompt =
        i === 5 ? `Look at the deploy key <private>${SECRET}</private> and the retry budget.` : `Question ${i} about the invoice exporter.`;
      transcript.user(prompt);
      await run('UserPromptSubmit', { prompt });
      toolN += 1;
      const edit = i === 6;
      await run(
        'PostToolUse',
        edit
          ? {
              tool_name: 'Edit',
              tool_use_id: `toolu_${toolN}`,
              tool_input: {
                file_path: join(project, 'src/exporter.ts'),
                old_string: 'RETRIES = 3',
                new_string: 'RETRIES = 5 // the S3 upload needs more',
              },
              tool_response: { filePath: join(project, 'src/exporter.ts'), originalFile: 'x'.repeat(50_000) },
            }
          : {
              tool_name: 'Bash',
              tool_use_id: `toolu_${toolN}`,
              tool_input: { command: `npm test -- case-${i}` },
              tool_response: { stdout: `exporter case ${i}: the S3 upload step ${i} finished with status ${200 + i}.`, stderr: '' },
            },
      );
      transcript.assistant(`Answer ${i}.`);
      await run('Stop', { stop_hook_active: false });
    };

    await run('SessionStart', { source: 'startup' });
    for (const i of [1, 2, 3]) await step(i);
    proxy.mode = 'late';
    for (const i of [4, 5, 6, 7]) await step(i);
    await run('PreCompact', { trigger: 'auto', custom_instructions: '' });
    await proxy.down();
    for (const i of [8, 9, 10]) await step(i);
    // Back: whatever the service holds now is sent, oldest first, by the hooks that follow.
    await proxy.up('pass');
    for (const i of [11, 12]) await step(i);
    transcript.user('That is all.');
    await run('SessionEnd', { reason: 'prompt_input_exit' });

    for (const r of runs) {
      expect(r.code, `${r.event}: ${r.stderr}`).toBe(0);
      expect(r.stderr).toBe('');
      expect(r.ms, `${r.event} took ${r.ms} ms`).toBeLessThan(r.timeoutMs);
    }
    // What the last flushers could not send (a request past its 1.5 s here, on a busy machine) the next
    // hooks send: a later turn's Stop of another session, which has nothing of its own to journal.
    const nudge = async () => {
      const depth = outboxDepth(data);
      if (depth > 0)
        await hooks.run('Stop', { session_id: 'ccbox-later', transcript_path: join(project, 'none.jsonl'), stop_hook_active: false });
      return depth;
    };
    await expect.poll(nudge, { timeout: 90_000, interval: 250 }).toBe(0);
    let session: any;
    // The worker summarizes once the extraction jobs queued before the end have failed (no model here).
    await expect
      .poll(async () => (session = (await gql<{ session: any }>(SESSION, { ns, s: 'ccbox-session-1' })).session).summary, {
        timeout: 180_000,
        interval: 500,
      })
      .not.toBeNull();
    expect(session).toMatchObject({ status: 'ended', prompts: 12, toolResults: 12 });
    expect(session.summary.request).toBe('Question 1 about the invoice exporter.');
    const [memories] = await services.executor.read<{ n: number; edits: number }>(
      'test',
      `MATCH (m:Memory {namespace: $ns, sessionId: 'ccbox-session-1'}) WHERE m.deletedAt IS NULL AND NOT 'session-summary' IN m.tags
       RETURN count(m) AS n, count(CASE WHEN 'file-edit' IN m.tags THEN 1 END) AS edits`,
      { ns },
    );
    expect(memories).toEqual({ n: 12, edits: 1 });
    // Late answers made the hooks send some events again: the service saw them more than once and applied them once.
    const eventIds = proxy.bodies
      .map((b) => JSON.parse(b).variables ?? {})
      .map((v) => v.e ?? v.i?.externalId ?? v.i?.eventId)
      .filter(Boolean);
    expect(eventIds.length).toBeGreaterThan(new Set(eventIds).size);
    // The private span never left the machine.
    expect(proxy.bodies.some((b) => b.includes('deploy key'))).toBe(true);
    for (const b of proxy.bodies) expect(b).not.toContain(SECRET);

    // The next session starts with the file the last one changed: the service's list (from the
    // session's summary) in place of the hook's own, listed once.
    const next = await hooks.run('SessionStart', {
      session_id: 'ccbox-session-2',
      transcript_path: join(project, 's2.jsonl'),
      source: 'startup',
    });
    const context: string = next[0]!.json.hookSpecificOutput.additionalContext;
    expect(context).toContain('## Files changed last session (session ccbox-session-1)\n- src/exporter.ts');
    expect(context).not.toContain('## Files changed in the last session');
    expect(context).toContain("completed (the agent's last report): Answer 12.");
    expect(context.length).toBeLessThanOrEqual(10_000);
  }, 420_000);

  it('the service applies every event once: prompts, tool results, checkpoints and the end, each sent twice, interleaved', async () => {
    const s = 'ccbox-twice';
    await gql(`mutation($i: StartSessionInput!) { startSession(input: $i) { chars } }`, { i: { namespace: ns, sessionId: s } });
    const events: Array<() => Promise<unknown>> = [];
    for (let i = 0; i < 4; i += 1) {
      events.push(() =>
        gql(
          `mutation($ns: String, $s: String!, $p: String!, $e: String) { sessionPrompt(namespace: $ns, sessionId: $s, prompt: $p, eventId: $e) { counted } }`,
          {
            ns,
            s,
            p: `Prompt ${i} about the importer`,
            e: `prompt-${i}`,
          },
        ),
      );
      events.push(() =>
        gql(`mutation($i: RememberInput!) { remember(input: $i) { memory { id } } }`, {
          i: {
            namespace: ns,
            sessionId: s,
            externalId: `tool-${i}`,
            content: `The importer run ${i} wrote ${1000 + i} rows to the ledger table.`,
          },
        }),
      );
    }
    events.push(() =>
      gql(`mutation($i: CheckpointInput!) { checkpoint(input: $i) { id } }`, {
        i: { namespace: ns, sessionId: s, trigger: 'agent', digest: 'turn end', eventId: 'stop-1' },
      }),
    );
    // Each event twice, the second copy two events later (a late answer's re-send).
    const order = events.flatMap((_, i) => (i >= 2 ? [i, i - 2] : [i])).concat([events.length - 2, events.length - 1]);
    for (const i of order) await events[i]!();
    await sleep(3_000);
    // A checkpoint sent again after the merge window is still the one checkpoint.
    await events[events.length - 1]!();
    const end = `mutation($ns: String, $s: String!) { endSession(namespace: $ns, sessionId: $s) { status } }`;
    await gql(end, { ns, s });
    await gql(end, { ns, s });

    const session = (await gql<{ session: any }>(SESSION, { ns, s })).session;
    expect(session).toMatchObject({ status: 'ended', prompts: 4, toolResults: 4 });
    const [counts] = await services.executor.read<{ memories: number; checkpoints: number; agent: number }>(
      'test',
      `CALL () { MATCH (m:Memory {namespace: $ns, sessionId: $s}) WHERE NOT 'session-summary' IN m.tags RETURN count(m) AS memories }
       CALL () { MATCH (c:Checkpoint {namespace: $ns, sessionId: $s}) RETURN count(c) AS checkpoints, count(CASE WHEN c.trigger = 'agent' THEN 1 END) AS agent }
       RETURN memories, checkpoints, agent`,
      { ns, s },
    );
    // The agent's checkpoint once (its third copy came past the merge window); the end's own once.
    expect(counts).toEqual({ memories: 4, checkpoints: 2, agent: 1 });
  }, 120_000);

  it('the outbox files are owner-only', () => {
    const projects = join(data, 'projects');
    for (const p of readdirSync(projects)) {
      expect(statSync(join(projects, p)).mode & 0o077).toBe(0);
      for (const f of readdirSync(join(projects, p, 'sessions'))) expect(statSync(join(projects, p, 'sessions', f)).mode & 0o077).toBe(0);
    }
  });
});
