import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientWaits, closeFake, listenOnLoopback, readBody, sendJson } from '../support/fake-http.js';
import { outboxDepth } from '../support/claude-code-hooks.js';

/**
 * The hooks shipped for Codex CLI, Gemini CLI and Cursor, run as those agents run them: each
 * command of the shipped file through a shell, exactly as written (`node ~/mnemograph/…`, with
 * HOME holding a `mnemograph` link to this repository), fed that agent's payload on stdin,
 * against a fake GraphQL service that records what it is sent. One short session per agent:
 * started, a prompt, a shell command, a file edit, a turn's end (and the session's end where the
 * agent has one); the service is sent each once, with the agent as the harness, and the agent
 * reads back its answer in its own shape.
 */

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const read = (path: string) => JSON.parse(readFileSync(join(REPO, path), 'utf8'));

interface Body {
  query: string;
  variables: any;
}

/** A hook command's run: exit code, stdout parsed (null when empty), time. */
function runShell(command: string, stdin: string, env: Record<string, string>, cwd: string) {
  return new Promise<{ code: number | null; json: any; ms: number }>((resolve, reject) => {
    const started = performance.now();
    const child = spawn('sh', ['-c', command], { cwd, env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, json: stdout.trim() ? JSON.parse(stdout) : null, ms: performance.now() - started }));
    child.stdin.end(stdin);
  });
}

describe('the hooks shipped for other agents, run against a service', () => {
  const bodies: Body[] = [];
  const waits = clientWaits();
  let server: Server;
  let url = '';
  const home = mkdtempSync(join(tmpdir(), 'mnemograph-agents-home-'));
  const project = mkdtempSync(join(tmpdir(), 'mnemograph-agents-project-'));
  const data = mkdtempSync(join(tmpdir(), 'mnemograph-agents-data-'));

  beforeAll(async () => {
    symlinkSync(REPO, join(home, 'mnemograph'));
    server = createServer(async (req, res) => {
      const body = JSON.parse(await readBody(req)) as Body;
      bodies.push(body);
      sendJson(res, 200, {
        data: {
          startSession: { context: '# What the last session learned\nThe export times out.', chars: 50, session: { sessionId: 'x' } },
          sessionPrompt: { counted: true, memories: 0, prompt: null },
          remember: { memory: { id: 'm' }, dedup: { action: 'STORED_NEW' } },
          checkpoint: { id: 'c' },
          endSession: { status: 'ended' },
        },
      });
    });
    url = `http://127.0.0.1:${await listenOnLoopback(server)}`;
  });

  afterAll(async () => {
    await closeFake(server, waits);
    for (const dir of [home, project, data]) rmSync(dir, { recursive: true, force: true });
  });

  /** Runs the shipped command(s) of one event; every run exits 0 within 3 s. */
  const hooks = (commandsOf: (event: string) => string[], extraEnv: Record<string, string> = {}) => {
    const env = {
      HOME: home,
      MNEMOGRAPH_URL: url,
      MNEMOGRAPH_DATA_DIR: data,
      CLAUDE_PLUGIN_DATA: '',
      MNEMOGRAPH_API_KEY: '',
      MNEMOGRAPH_NAMESPACE: '',
      CLAUDE_PROJECT_DIR: '',
      ...extraEnv,
    };
    return async (event: string, payload: Record<string, unknown>) => {
      const commands = commandsOf(event);
      expect(commands.length, event).toBeGreaterThan(0);
      const runs = [];
      for (const command of commands) {
        const run = await runShell(command, JSON.stringify(payload), env, project);
        expect(run.code, `${event} exit code`).toBe(0);
        expect(run.ms).toBeLessThan(3_000);
        runs.push(run);
      }
      return runs[0]!;
    };
  };
  /** The requests the service got for one session, once the outbox is empty. */
  const sessionRequests = async (sessionId: string) => {
    await expect.poll(() => outboxDepth(data), { timeout: 20_000, interval: 100 }).toBe(0);
    return bodies.filter((b) => JSON.stringify(b.variables).includes(`"${sessionId}"`));
  };
  const mutation = (b: Body) => /mutation[^{]*\{\s*(\w+)/.exec(b.query)?.[1];
  const claudeShaped = (file: any) => (event: string) =>
    (file.hooks[event] ?? []).flatMap((g: { hooks: Array<{ command: string }> }) => g.hooks.map((h) => h.command));

  it('Codex CLI: a session through .codex/hooks.json as shipped', async () => {
    const run = hooks(claudeShaped(read('integrations/codex/hooks.json')));
    const base = {
      session_id: 'codex-1',
      turn_id: 't1',
      transcript_path: null,
      cwd: project,
      model: 'gpt-5-codex',
      permission_mode: 'default',
    };
    const start = await run('SessionStart', { ...base, hook_event_name: 'SessionStart', source: 'startup' });
    expect(start.json.hookSpecificOutput).toEqual({
      hookEventName: 'SessionStart',
      additionalContext: expect.stringContaining('The export times out.'),
    });
    expect(
      (await run('UserPromptSubmit', { ...base, hook_event_name: 'UserPromptSubmit', prompt: 'Why does the export fail?' })).json,
    ).toBeNull();
    await run('PostToolUse', {
      ...base,
      hook_event_name: 'PostToolUse',
      tool_name: 'Bash',
      tool_input: { command: 'npm test' },
      tool_response: 'FAIL exporter.test.ts: the upload timed out after 30 s',
      tool_use_id: 'call_1',
    });
    await run('Stop', {
      ...base,
      hook_event_name: 'Stop',
      stop_hook_active: false,
      last_assistant_message: 'The S3 upload times out; raise the timeout.',
    });
    const sent = await sessionRequests('codex-1');
    expect(sent.map(mutation)).toEqual(['startSession', 'sessionPrompt', 'remember', 'checkpoint']);
    expect(sent[0]!.variables.i).toMatchObject({ harness: 'codex' });
    expect(sent[2]!.variables.i).toMatchObject({
      content: 'FAIL exporter.test.ts: the upload timed out after 30 s',
      externalId: 'tool:call_1',
      source: 'codex',
    });
    expect(sent[3]!.variables.i).toMatchObject({ trigger: 'agent', digest: expect.stringContaining('Assistant: The S3 upload times out') });
  });

  it('Gemini CLI: a session through settings.json as shipped', async () => {
    const run = hooks(claudeShaped(read('integrations/gemini-cli/settings.json')), { GEMINI_PROJECT_DIR: project });
    const base = {
      session_id: 'gemini-1',
      transcript_path: join(project, 'gemini-1.json'),
      cwd: project,
      timestamp: '2026-11-28T10:00:00Z',
    };
    const start = await run('SessionStart', { ...base, hook_event_name: 'SessionStart', source: 'startup' });
    expect(start.json.hookSpecificOutput).toMatchObject({
      hookEventName: 'SessionStart',
      additionalContext: expect.stringContaining('The export times out.'),
    });
    await run('BeforeAgent', {
      ...base,
      hook_event_name: 'BeforeAgent',
      prompt: 'Raise the retries <private>the staging password is hunter2</private>',
    });
    await run('AfterTool', {
      ...base,
      hook_event_name: 'AfterTool',
      tool_name: 'replace',
      tool_input: { file_path: join(project, 'src/export.ts'), old_string: 'retries: 3', new_string: 'retries: 5' },
      tool_response: { llmContent: 'Successfully modified file', returnDisplay: 'ok' },
    });
    await run('AfterAgent', {
      ...base,
      hook_event_name: 'AfterAgent',
      prompt: 'Raise the retries',
      prompt_response: 'Raised to 5.',
      stop_hook_active: false,
    });
    await run('SessionEnd', { ...base, hook_event_name: 'SessionEnd', reason: 'exit' });
    const sent = await sessionRequests('gemini-1');
    expect(sent.map(mutation)).toEqual(['startSession', 'sessionPrompt', 'remember', 'checkpoint', 'endSession']);
    expect(sent[1]!.variables.p).toBe('Raise the retries');
    expect(JSON.stringify(sent)).not.toContain('hunter2');
    expect(sent[2]!.variables.i).toMatchObject({
      content: 'File changed: src/export.ts: edited, 1 line added\nretries: 5',
      source: 'gemini-cli',
    });
    expect(sent[2]!.variables.i.tags).toContain('file-edit');
    expect(sent[3]!.variables.i.digest).toContain('Files changed: src/export.ts');
  });

  it('Cursor: a session through hooks.json as shipped, started at its first event when no sessionStart comes', async () => {
    const file = read('integrations/cursor/hooks.json');
    const run = hooks((event) => (file.hooks[event] ?? []).map((h: { command: string }) => h.command));
    const base = { conversation_id: 'cursor-1', generation_id: 'gen-1', workspace_roots: [project] };
    const prompt = await run('beforeSubmitPrompt', {
      ...base,
      hook_event_name: 'beforeSubmitPrompt',
      prompt: 'Fix the bug in main.ts',
      attachments: [],
    });
    expect(prompt.json).toEqual({ continue: true });
    await run('afterFileEdit', {
      ...base,
      hook_event_name: 'afterFileEdit',
      file_path: join(project, 'src/main.ts'),
      edits: [{ old_string: 'const foo = 1', new_string: 'const foo = 2' }],
    });
    await run('afterShellExecution', {
      ...base,
      hook_event_name: 'afterShellExecution',
      command: 'npm test',
      cwd: project,
      output: 'ok 12 tests passed in exporter.test.ts',
      duration: 150,
    });
    expect((await run('stop', { ...base, hook_event_name: 'stop', status: 'completed', loop_count: 0 })).json).toEqual({});
    const sent = await sessionRequests('cursor-1');
    expect(sent.map(mutation)).toEqual(['startSession', 'sessionPrompt', 'remember', 'remember', 'checkpoint']);
    expect(sent[0]!.variables.i).toMatchObject({ harness: 'cursor' });
    expect(sent[2]!.variables.i.content).toBe('File changed: src/main.ts: edited (1 changes), 1 line added\nconst foo = 2');
    expect(sent[3]!.variables.i).toMatchObject({
      content: 'ok 12 tests passed in exporter.test.ts',
      metadata: { tool: 'Bash', input: 'npm test' },
    });

    // A newer Cursor's sessionStart: the start context comes back as additional_context.
    const start = await run('sessionStart', {
      hook_event_name: 'sessionStart',
      session_id: 'cursor-2',
      is_background_agent: false,
      composer_mode: 'agent',
      workspace_roots: [project],
    });
    expect(start.json).toEqual({ additional_context: expect.stringContaining('The export times out.') });
  });
  it('OpenCode: a session through the shipped plugin, its hooks called as OpenCode calls them', async () => {
    const keys = [
      'MNEMOGRAPH_HOOK',
      'MNEMOGRAPH_URL',
      'MNEMOGRAPH_DATA_DIR',
      'MNEMOGRAPH_NAMESPACE',
      'CLAUDE_PLUGIN_DATA',
      'CLAUDE_PROJECT_DIR',
    ];
    const saved = Object.fromEntries(keys.map((k) => [k, process.env[k]]));
    Object.assign(process.env, {
      MNEMOGRAPH_HOOK: join(REPO, 'integrations/claude-code/hooks/mnemograph-hook.mjs'),
      MNEMOGRAPH_URL: url,
      MNEMOGRAPH_DATA_DIR: data,
      MNEMOGRAPH_NAMESPACE: '',
      CLAUDE_PLUGIN_DATA: '',
      CLAUDE_PROJECT_DIR: '',
    });
    try {
      // @ts-expect-error — plain JavaScript, no types: the plugin as OpenCode loads it.
      const { MnemographPlugin } = await import('../../integrations/opencode/mnemograph.js');
      const hooks = await MnemographPlugin({ directory: project, worktree: project });
      const system: string[] = [];
      await hooks['experimental.chat.system.transform']({ sessionID: 'oc-1', model: {} }, { system });
      expect(system).toEqual([expect.stringContaining('The export times out.')]);
      await hooks['chat.message'](
        { sessionID: 'oc-1', agent: 'build' },
        { message: {}, parts: [{ type: 'text', text: 'Raise the retries' }] },
      );
      await hooks['tool.execute.before'](
        { tool: 'edit', sessionID: 'oc-1', callID: 'call_1' },
        { args: { filePath: join(project, 'src/export.ts'), oldString: 'retries: 3', newString: 'retries: 5' } },
      );
      await hooks['tool.execute.after'](
        { tool: 'edit', sessionID: 'oc-1', callID: 'call_1' },
        { title: 'src/export.ts', output: 'Edit applied successfully.', metadata: {} },
      );
      await hooks.event({ event: { type: 'session.idle', properties: { sessionID: 'oc-1' } } });
      await expect
        .poll(async () => (await sessionRequests('oc-1')).map(mutation), { timeout: 20_000 })
        .toEqual(['startSession', 'sessionPrompt', 'remember', 'checkpoint']);
      const sent = await sessionRequests('oc-1');
      expect(sent[0]!.variables.i).toMatchObject({ harness: 'opencode' });
      expect(sent[2]!.variables.i).toMatchObject({
        content: 'File changed: src/export.ts: edited, 1 line added\nretries: 5',
        externalId: 'tool:call_1',
      });
    } finally {
      for (const k of keys)
        if (saved[k] === undefined) delete process.env[k];
        else process.env[k] = saved[k];
    }
  });
});
