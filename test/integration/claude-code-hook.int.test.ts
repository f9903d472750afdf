import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { PLUGIN_ROOT, shippedHooks } from '../support/claude-code-hooks.js';

/**
 * The Claude Code hook program on its own, against a fake GraphQL service that records what it
 * is sent: stdin read without waiting for EOF, an oversized payload trimmed rather than dropped,
 * budgets inside hooks.json's timeouts, two flushers at once sending each entry once, the
 * outbox's bound and its counter, owner-only files.
 */

const HOOK = join(PLUGIN_ROOT, 'hooks', 'mnemograph-hook.mjs');

interface Fake {
  url: string;
  bodies: Array<{ query: string; variables: any }>;
  server: Server;
  /** Milliseconds each answer waits. */
  delayMs: number;
  /** The start context it answers. */
  context: string;
}

async function fakeService(): Promise<Fake> {
  const fake = { bodies: [], delayMs: 0, context: '# Context' } as unknown as Fake;
  fake.server = createServer((req, res) => {
    let text = '';
    req.on('data', (c) => (text += c));
    req.on('end', () => {
      const body = JSON.parse(text);
      fake.bodies.push(body);
      const data = {
        startSession: { context: fake.context, chars: fake.context.length, session: { sessionId: 'x' } },
        sessionPrompt: { counted: true, memories: 0, prompt: null },
        remember: { memory: { id: 'm' }, dedup: { action: 'STORED_NEW' } },
        checkpoint: { id: 'c' },
        endSession: { status: 'ended' },
      };
      setTimeout(() => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ data }));
      }, fake.delayMs);
    });
  });
  await new Promise<void>((resolve) => fake.server.listen(0, '127.0.0.1', resolve));
  fake.url = `http://127.0.0.1:${(fake.server.address() as { port: number }).port}`;
  return fake;
}

interface Run {
  code: number | null;
  ms: number;
  stdout: string;
}

/** Runs the hook; `keepOpen`: stdin is written and left open (never EOF). */
function runHook(args: string[], env: Record<string, string>, stdin: string | null, keepOpen = false): Promise<Run> {
  return new Promise((resolve) => {
    const started = performance.now();
    const child = spawn(process.execPath, [HOOK, ...args], { env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.on('close', (code) => resolve({ code, ms: performance.now() - started, stdout }));
    if (stdin !== null) {
      if (keepOpen) child.stdin.write(stdin);
      else child.stdin.end(stdin);
    } else child.stdin.end();
    child.stdin.on('error', () => undefined);
  });
}

describe('the Claude Code hook program', () => {
  let fake: Fake;
  let data = '';
  const project = mkdtempSync(join(tmpdir(), 'mnemograph-cchook-project-'));
  const env = () => ({
    MNEMOGRAPH_URL: fake.url,
    MNEMOGRAPH_NAMESPACE: 'cchook-test',
    CLAUDE_PLUGIN_DATA: data,
    CLAUDE_PROJECT_DIR: project,
    MNEMOGRAPH_BACKGROUND: '0',
  });
  const payload = (event: string, extra: Record<string, unknown>) =>
    JSON.stringify({ hook_event_name: event, session_id: 'cchook-1', cwd: project, ...extra });
  const pending = () => {
    const projects = join(data, 'projects');
    return readdirSync(projects).flatMap((p) => readdirSync(join(projects, p, 'outbox')).filter((f) => f.endsWith('.json')));
  };

  beforeAll(async () => {
    fake = await fakeService();
  });
  afterAll(() => {
    fake.server.close();
    rmSync(project, { recursive: true, force: true });
  });
  afterEach(() => {
    fake.bodies.length = 0;
    fake.delayMs = 0;
    fake.context = '# Context';
    if (data) rmSync(data, { recursive: true, force: true });
  });
  const fresh = () => (data = mkdtempSync(join(tmpdir(), 'mnemograph-cchook-data-')));

  it('every hook’s budget ends inside the timeout hooks.json declares; the hooks that print nothing are async or hand off', async () => {
    const { budgetFor, declaredTimeout } = await import(HOOK);
    const hooks = shippedHooks().hooks;
    for (const [event, entries] of Object.entries(hooks)) {
      const declared = Math.min(...entries.flatMap((e) => e.hooks.map((h) => h.timeout!)));
      expect(declaredTimeout(event)).toBe(declared);
      expect(budgetFor(event)).toBeLessThan(declared * 1000);
    }
    expect(hooks.PostToolUse![0]!.hooks[0]!.async).toBe(true);
    expect(hooks.Stop![0]!.hooks[0]!.async).toBe(true);
  });

  it('parses stdin as soon as one whole JSON object has arrived: stdin left open, the prompt is sent at once', async () => {
    fresh();
    const r = await runHook([], env(), payload('UserPromptSubmit', { prompt: 'Where is the retry budget set?' }), true);
    expect(r.code).toBe(0);
    expect(r.ms).toBeLessThan(1_000);
    const sent = fake.bodies.find((b) => b.query.includes('sessionPrompt'))!;
    expect(sent.variables).toMatchObject({ p: 'Where is the retry budget set?', s: 'cchook-1', ns: 'cchook-test' });
    expect(sent.variables.e).toMatch(/^prompt:/);
    expect(pending()).toEqual([]);
  });

  it('trims a payload over 8 MiB to what is stored instead of dropping it', async () => {
    fresh();
    const stdout = `first line of a huge build log\n${'compiling module\n'.repeat(700_000)}`;
    const r = await runHook(
      [],
      env(),
      payload('PostToolUse', {
        tool_name: 'Bash',
        tool_use_id: 'toolu_big',
        tool_input: { command: 'make' },
        tool_response: { stdout, stderr: '' },
      }),
    );
    expect(r.code).toBe(0);
    const sent = fake.bodies.find((b) => b.query.includes('remember'))!;
    expect(sent.variables.i.content.startsWith('first line of a huge build log')).toBe(true);
    expect(sent.variables.i.content.length).toBeLessThanOrEqual(2_000);
    expect(sent.variables.i.externalId).toBe('tool:toolu_big');
  });

  it('cuts <private> spans out of what it journals and sends', async () => {
    fresh();
    fake.delayMs = 0;
    await runHook([], env(), payload('UserPromptSubmit', { prompt: 'Deploy with <private>token ghp_s3cr3tvalue</private> then check.' }));
    const sent = fake.bodies.find((b) => b.query.includes('sessionPrompt'))!;
    expect(sent.variables.p).toBe('Deploy with  then check.');
    expect(JSON.stringify(fake.bodies)).not.toContain('s3cr3t');
  });

  it("a start context ends with this machine's list of the last session's changed files, unless the service's context lists that session's", async () => {
    fresh();
    const edit = {
      tool_name: 'Edit',
      tool_use_id: 'toolu_edit_1',
      tool_input: { file_path: join(project, 'src/exporter.ts'), old_string: 'RETRIES = 3', new_string: 'RETRIES = 5' },
      tool_response: { filePath: join(project, 'src/exporter.ts') },
    };
    expect((await runHook([], env(), payload('PostToolUse', edit))).code).toBe(0);
    const start = () =>
      runHook([], env(), JSON.stringify({ hook_event_name: 'SessionStart', session_id: 'cchook-2', cwd: project, source: 'startup' }));
    const own = JSON.parse((await start()).stdout).hookSpecificOutput.additionalContext;
    expect(own).toContain('# Context\n\n## Files changed in the last session (cchook-1');
    expect(own).toContain('- src/exporter.ts (edited)');
    fake.context = '# Context\n\n## Files changed last session (session cchook-1)\n- src/exporter.ts';
    const served = JSON.parse((await start()).stdout).hookSpecificOutput.additionalContext;
    expect(served).toBe(fake.context);
    // The service's list is an older session's (cchook-1's end job not run yet): this machine's follows it.
    fake.context = '# Context\n\n## Files changed last session (session cchook-0)\n- README.md';
    const older = JSON.parse((await start()).stdout).hookSpecificOutput.additionalContext;
    expect(older).toContain('(session cchook-0)\n- README.md');
    expect(older).toContain('## Files changed in the last session (cchook-1');
  });

  it('two flushers at once send each pending entry once, oldest first; the files are owner-only', async () => {
    fresh();
    // Journaled while the service is away (a port nothing listens on).
    const away = { ...env(), MNEMOGRAPH_URL: 'http://127.0.0.1:9' };
    for (let i = 0; i < 30; i += 1)
      await runHook(
        [],
        away,
        payload('PostToolUse', {
          tool_name: 'Bash',
          tool_use_id: `toolu_${String(i).padStart(2, '0')}`,
          tool_input: { command: `step ${i}` },
          tool_response: { stdout: `output of step ${i}, long enough to keep`, stderr: '' },
        }),
      );
    const names = pending();
    expect(names).toHaveLength(30);
    const home = join(data, 'projects', readdirSync(join(data, 'projects'))[0]!);
    for (const f of [home, join(home, 'outbox'), ...names.map((n) => join(home, 'outbox', n))]) expect(statSync(f).mode & 0o077).toBe(0);

    fake.delayMs = 20;
    const [a, b] = await Promise.all([runHook(['--flush', home], env(), null), runHook(['--flush', home], env(), null)]);
    expect([a.code, b.code]).toEqual([0, 0]);
    const ids = fake.bodies.filter((x) => x.query.includes('remember')).map((x) => x.variables.i.externalId);
    expect(ids).toEqual(Array.from({ length: 30 }, (_, i) => `tool:toolu_${String(i).padStart(2, '0')}`));
    expect(pending()).toEqual([]);
    const status = JSON.parse(readFileSync(join(home, 'status.json'), 'utf8'));
    expect(status).toMatchObject({ sent: 30, dropped: 0 });
  });

  it('is bounded on disk: past the bound the oldest entries are dropped and counted; --status says so', async () => {
    fresh();
    const away = { ...env(), MNEMOGRAPH_URL: 'http://127.0.0.1:9', MNEMOGRAPH_OUTBOX_MAX_ENTRIES: '10' };
    for (let i = 0; i < 14; i += 1)
      await runHook([], away, payload('UserPromptSubmit', { prompt: `Prompt number ${i} while the service is away` }));
    expect(pending()).toHaveLength(10);
    const status = await runHook(['--status', project], away, null);
    expect(status.stdout).toContain('outbox: 10 pending');
    expect(status.stdout).toContain('dropped (outbox full): 4');
    expect(status.stdout).toContain('namespace: cchook-test');
    expect(status.stdout).toMatch(/reachable: no/);
    // Back: the ten that were kept are the newest, sent in order.
    await runHook(['--flush', join(data, 'projects', readdirSync(join(data, 'projects'))[0]!)], env(), null);
    expect(fake.bodies.map((b) => b.variables.p)).toEqual(
      Array.from({ length: 10 }, (_, i) => `Prompt number ${i + 4} while the service is away`),
    );
  });

  it('a slow service: the prompt hook returns at once (its event waits in the outbox), the next hook sends it', async () => {
    fresh();
    fake.delayMs = 3_000;
    const slow = { ...env(), MNEMOGRAPH_BACKGROUND: '1', MNEMOGRAPH_FLUSH_REQUEST_MS: '500', MNEMOGRAPH_FLUSH_BUDGET_MS: '1000' };
    const r = await runHook([], slow, payload('UserPromptSubmit', { prompt: 'Is the exporter fixed?' }));
    expect(r.code).toBe(0);
    expect(r.ms).toBeLessThan(1_000);
    await new Promise((resolve) => setTimeout(resolve, 1_800));
    expect(pending()).toHaveLength(1);
    fake.delayMs = 0;
    await runHook([], env(), payload('Stop', { stop_hook_active: false, transcript_path: join(project, 'none.jsonl') }));
    expect(pending()).toEqual([]);
    const prompts = fake.bodies.filter((b) => b.query.includes('sessionPrompt'));
    // Sent late once (no answer in time), then again: one event id both times.
    expect(new Set(prompts.map((p) => p.variables.e)).size).toBe(1);
  });
});
