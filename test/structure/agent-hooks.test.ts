import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
// @ts-expect-error — plain JavaScript, no types: the hook program's own adapter, as the hooks run it.
import { AGENTS, adapt } from '../../integrations/claude-code/hooks/agents.mjs';
// @ts-expect-error — plain JavaScript, no types.
import { budgetFor, toolResult, transcriptText } from '../../integrations/claude-code/hooks/mnemograph-hook.mjs';

/**
 * The hooks shipped for other agents (integrations/codex, integrations/gemini-cli,
 * integrations/cursor), each parsed as that agent reads its file: every hook runs the one hook
 * program with `--agent <name>`, on an event the adapter knows, within the timeout the program
 * budgets for. Then each agent's documented payload (the shapes cited in agents.mjs) goes through
 * the adapter and comes out as the Claude Code payload the program reads — and the program's
 * answer goes back in the shape that agent reads.
 */

const read = (path: string) => JSON.parse(readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8'));
const COMMAND = /^node ~\/mnemograph\/integrations\/claude-code\/hooks\/mnemograph-hook\.mjs --agent (\w+)$/;
const CLAUDE_EVENTS = ['SessionStart', 'UserPromptSubmit', 'PostToolUse', 'PreCompact', 'Stop', 'SessionEnd'];
const OPTIONS = { skipTools: ['TodoWrite'], captureEdits: true, editChars: 400, minToolChars: 1, maxReadChars: 12_000, toolChars: 2_000 };

interface Group {
  matcher?: string;
  hooks: Array<{ type?: string; command: string; timeout?: number; name?: string }>;
}

/** Each hook command of a Claude-shaped file (Codex, Gemini CLI): its event, the agent it names and its timeout. */
function commands(hooks: Record<string, Group[]>) {
  return Object.entries(hooks).flatMap(([event, groups]) =>
    groups.flatMap((g) => g.hooks.map((h) => ({ event, agent: COMMAND.exec(h.command)?.[1], type: h.type, timeout: h.timeout }))),
  );
}

describe('the hooks shipped for other agents', () => {
  it('Codex CLI: .codex/hooks.json runs the hook program for its five events, timeouts in seconds as the program budgets', () => {
    const file = read('integrations/codex/hooks.json');
    expect(Object.keys(file)).toEqual(['hooks']);
    const found = commands(file.hooks);
    expect(found.map((c) => c.event).sort()).toEqual(['PostToolUse', 'PreCompact', 'SessionStart', 'Stop', 'UserPromptSubmit']);
    for (const c of found) {
      expect(c).toMatchObject({ agent: 'codex', type: 'command' });
      expect(c.timeout).toBe(AGENTS.codex.timeouts[c.event]);
      expect(budgetFor(c.event, AGENTS.codex)).toBe(c.timeout! * 1000 - 1000);
    }
  });

  it('Gemini CLI: settings.json hooks run the hook program for six events, timeouts in milliseconds as the program budgets', () => {
    const file = read('integrations/gemini-cli/settings.json');
    const found = commands(file.hooks);
    expect(found.map((c) => c.event).sort()).toEqual(Object.keys(AGENTS.gemini.events).sort());
    for (const c of found) {
      expect(c).toMatchObject({ agent: 'gemini', type: 'command' });
      const claude = AGENTS.gemini.events[c.event];
      expect(CLAUDE_EVENTS).toContain(claude);
      expect(c.timeout).toBe(AGENTS.gemini.timeouts[claude] * 1000);
    }
  });

  it('Cursor: hooks.json version 1 runs the hook program for every event the adapter maps', () => {
    const file = read('integrations/cursor/hooks.json');
    expect(file.version).toBe(1);
    expect(Object.keys(file.hooks).sort()).toEqual(Object.keys(AGENTS.cursor.events).sort());
    for (const [event, entries] of Object.entries(file.hooks as Record<string, Array<{ command: string }>>)) {
      expect(entries).toHaveLength(1);
      expect(COMMAND.exec(entries[0]!.command)?.[1], event).toBe('cursor');
      expect(CLAUDE_EVENTS).toContain(AGENTS.cursor.events[event]);
    }
  });
});

describe("each agent's documented payload through the adapter", () => {
  const through = (agent: string, payload: Record<string, unknown>, env = {}) => adapt(agent, payload, env).input;

  it('Codex CLI: its payload is Claude Code’s; its rollout transcript is read as turns', () => {
    // codex-rs/hooks/schema/generated/post-tool-use.command.input.schema.json: every required field.
    const post = {
      session_id: 's-codex',
      turn_id: 't1',
      transcript_path: '/home/u/.codex/sessions/2026/11/28/rollout-x.jsonl',
      cwd: '/work/app',
      hook_event_name: 'PostToolUse',
      model: 'gpt-5-codex',
      permission_mode: 'default',
      tool_name: 'Bash',
      tool_input: { command: 'npm test' },
      tool_response: 'FAIL exporter.test.ts: timed out after 30 s',
      tool_use_id: 'call_1',
    };
    expect(through('codex', post)).toEqual(post);
    expect(toolResult(through('codex', post), OPTIONS)).toMatchObject({ tool: 'Bash', asked: 'npm test' });
    // A rollout as skillsynchq/txcript docs/formats/codex.md dissects it: response_item messages, input_text / output_text parts.
    const rollout = [
      { type: 'session_meta', payload: { id: 's-codex', cwd: '/work/app' } },
      {
        type: 'response_item',
        payload: {
          type: 'message',
          role: 'user',
          content: [{ type: 'input_text', text: '<environment_context>cwd</environment_context>' }],
        },
      },
      {
        type: 'response_item',
        payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Why does the export fail?' }] },
      },
      { type: 'response_item', payload: { type: 'function_call', name: 'exec_command', arguments: '{}', call_id: 'c1' } },
      {
        type: 'response_item',
        payload: { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'The S3 upload times out.' }] },
      },
    ]
      .map((l) => JSON.stringify({ timestamp: '2026-11-28T10:00:00.000Z', ...l }))
      .join('\n');
    expect(transcriptText(rollout, 1000)).toBe('User: Why does the export fail?\nAssistant: The S3 upload times out.');
  });

  it('Gemini CLI: BeforeAgent, AfterTool (a shell, an edit, a write), AfterAgent, PreCompress become Claude Code’s events', () => {
    // google-gemini/gemini-cli docs/hooks/reference.md: base fields, then each event's own.
    const base = { session_id: 's-gem', transcript_path: '/tmp/t.json', cwd: '/tmp/elsewhere', timestamp: '2026-11-28T10:00:00Z' };
    const env = { GEMINI_PROJECT_DIR: '/work/app' };
    expect(through('gemini', { ...base, hook_event_name: 'SessionStart', source: 'startup' }, env)).toMatchObject({
      hook_event_name: 'SessionStart',
      session_id: 's-gem',
      cwd: '/work/app',
    });
    expect(through('gemini', { ...base, hook_event_name: 'BeforeAgent', prompt: 'Fix the export' }, env)).toMatchObject({
      hook_event_name: 'UserPromptSubmit',
      prompt: 'Fix the export',
    });
    const shell = through(
      'gemini',
      {
        ...base,
        hook_event_name: 'AfterTool',
        tool_name: 'run_shell_command',
        tool_input: { command: 'npm test' },
        tool_response: { llmContent: 'FAIL exporter.test.ts', returnDisplay: 'FAIL', error: null },
      },
      env,
    );
    expect(shell).toMatchObject({ hook_event_name: 'PostToolUse', tool_name: 'run_shell_command', tool_response: 'FAIL exporter.test.ts' });
    expect(toolResult(shell, OPTIONS)).toMatchObject({ tool: 'run_shell_command', content: 'FAIL exporter.test.ts' });
    // replace is Claude Code's Edit (docs/hooks/index.md's tool name mapping): one edit record.
    const edit = through(
      'gemini',
      {
        ...base,
        hook_event_name: 'AfterTool',
        tool_name: 'replace',
        tool_input: { file_path: '/work/app/src/export.ts', old_string: 'retries: 3', new_string: 'retries: 5' },
        tool_response: { llmContent: 'Successfully modified file', returnDisplay: '' },
      },
      env,
    );
    expect(toolResult(edit, OPTIONS, '/work/app')).toMatchObject({
      tool: 'Edit',
      content: 'File changed: src/export.ts: edited, 1 line added\nretries: 5',
    });
    const write = through(
      'gemini',
      { ...base, hook_event_name: 'AfterTool', tool_name: 'write_file', tool_input: { file_path: '/work/app/NOTES.md', content: 'a\nb' } },
      env,
    );
    expect(toolResult(write, OPTIONS, '/work/app')?.content).toBe('File changed: NOTES.md: written, 2 lines added\na\nb');
    expect(
      toolResult(through('gemini', { ...base, hook_event_name: 'AfterTool', tool_name: 'write_todos', tool_input: {} }), OPTIONS),
    ).toBeNull();
    expect(
      through('gemini', {
        ...base,
        hook_event_name: 'AfterAgent',
        prompt: 'Fix it',
        prompt_response: 'Done: retries raised.',
        stop_hook_active: false,
      }),
    ).toMatchObject({ hook_event_name: 'Stop', last_assistant_message: 'Done: retries raised.', stop_hook_active: false });
    expect(through('gemini', { ...base, hook_event_name: 'PreCompress', trigger: 'auto' })).toMatchObject({
      hook_event_name: 'PreCompact',
      trigger: 'auto',
    });
    expect(through('gemini', { ...base, hook_event_name: 'SessionEnd', reason: 'exit' })).toMatchObject({ hook_event_name: 'SessionEnd' });
  });

  it('Gemini CLI: the start context answers as hookSpecificOutput.additionalContext under its own event name', () => {
    const output = { hookSpecificOutput: { hookEventName: 'UserPromptSubmit', additionalContext: '<memory>…</memory>' } };
    expect(AGENTS.gemini.reply('BeforeAgent', output)).toEqual({
      hookSpecificOutput: { hookEventName: 'BeforeAgent', additionalContext: '<memory>…</memory>' },
    });
    expect(AGENTS.gemini.reply('AfterTool', null)).toBeNull();
  });

  it('Cursor: conversation_id is the session, workspace_roots[0] the project; a prompt, an edit, a shell command, the stop', () => {
    // https://cupcake.eqtylab.io/reference/harnesses/cursor: the common fields and each event's own.
    const base = { conversation_id: 'conv-123', generation_id: 'gen-456', workspace_roots: ['/work/app'], cursor_version: '2.0.77' };
    expect(
      through('cursor', { ...base, hook_event_name: 'beforeSubmitPrompt', prompt: 'Fix the bug in main.ts', attachments: [] }),
    ).toEqual({
      hook_event_name: 'UserPromptSubmit',
      session_id: 'conv-123',
      cwd: '/work/app',
      transcript_path: undefined,
      prompt: 'Fix the bug in main.ts',
    });
    const edit = through('cursor', {
      ...base,
      hook_event_name: 'afterFileEdit',
      file_path: '/work/app/src/main.ts',
      edits: [{ old_string: 'const foo = 1', new_string: 'const foo = 2' }],
    });
    expect(toolResult(edit, OPTIONS, '/work/app')).toMatchObject({
      tool: 'MultiEdit',
      content: 'File changed: src/main.ts: edited (1 changes), 1 line added\nconst foo = 2',
    });
    const shell = through('cursor', {
      ...base,
      hook_event_name: 'afterShellExecution',
      command: 'npm test',
      cwd: '/work/app',
      output: 'ok 12 tests',
      duration: 150,
    });
    expect(toolResult(shell, OPTIONS)).toMatchObject({ tool: 'Bash', asked: 'npm test', content: 'ok 12 tests' });
    expect(through('cursor', { ...base, hook_event_name: 'stop', status: 'completed', loop_count: 0 })).toMatchObject({
      hook_event_name: 'Stop',
      session_id: 'conv-123',
      stop_hook_active: false,
    });
    // sessionStart as newer builds send it (session_id, is_background_agent, composer_mode), sessionEnd with conversation_id.
    expect(
      through('cursor', {
        hook_event_name: 'sessionStart',
        session_id: 'conv-123',
        is_background_agent: false,
        composer_mode: 'agent',
        workspace_roots: ['/work/app'],
      }),
    ).toMatchObject({
      hook_event_name: 'SessionStart',
      session_id: 'conv-123',
      source: 'startup',
    });
    expect(through('cursor', { ...base, hook_event_name: 'sessionEnd' })).toMatchObject({
      hook_event_name: 'SessionEnd',
      session_id: 'conv-123',
    });
  });

  it('Cursor: the start context answers as additional_context, a prompt is always let through, the rest answer {}', () => {
    const start = { hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: '# Context' } };
    expect(AGENTS.cursor.reply('sessionStart', start)).toEqual({ additional_context: '# Context' });
    expect(AGENTS.cursor.reply('sessionStart', null)).toEqual({});
    expect(AGENTS.cursor.reply('beforeSubmitPrompt', null)).toEqual({ continue: true });
    expect(AGENTS.cursor.reply('afterFileEdit', null)).toEqual({});
  });

  it('OpenCode: its plugin hooks’ arguments, as the shipped plugin forwards them, become Claude Code’s events', () => {
    // The Hooks type of @opencode-ai/plugin: chat.message, tool.execute.before/after, event (session.idle).
    const directory = '/work/app';
    expect(
      through('opencode', {
        hook_event_name: 'chat.message',
        directory,
        input: { sessionID: 'ses_1', agent: 'build' },
        output: {
          parts: [
            { type: 'text', text: 'Why does the export fail?' },
            { type: 'text', text: 'injected', synthetic: true },
            { type: 'file', url: 'file:///x' },
          ],
        },
      }),
    ).toEqual({ hook_event_name: 'UserPromptSubmit', session_id: 'ses_1', cwd: directory, prompt: 'Why does the export fail?' });
    const edit = through('opencode', {
      hook_event_name: 'tool.execute.after',
      directory,
      input: { tool: 'edit', sessionID: 'ses_1', callID: 'call_7' },
      args: { filePath: '/work/app/src/export.ts', oldString: 'retries: 3', newString: 'retries: 5' },
      output: { title: 'src/export.ts', output: 'Edit applied successfully.', metadata: {} },
    });
    expect(edit).toMatchObject({ hook_event_name: 'PostToolUse', tool_use_id: 'call_7' });
    expect(toolResult(edit, OPTIONS, directory)?.content).toBe('File changed: src/export.ts: edited, 1 line added\nretries: 5');
    const bash = through('opencode', {
      hook_event_name: 'tool.execute.after',
      directory,
      input: { tool: 'bash', sessionID: 'ses_1', callID: 'call_8' },
      args: { command: 'npm test', description: 'Run the tests' },
      output: { title: 'npm test', output: 'FAIL exporter.test.ts', metadata: {} },
    });
    expect(toolResult(bash, OPTIONS)).toMatchObject({ tool: 'bash', asked: 'npm test', content: 'FAIL exporter.test.ts' });
    const memoryTool = through('opencode', {
      hook_event_name: 'tool.execute.after',
      input: { tool: 'mnemograph_recall', sessionID: 'ses_1' },
      output: { output: 'x'.repeat(50) },
    });
    expect(toolResult(memoryTool, { ...OPTIONS, skipTools: ['mcp__mnemograph__*'] })).toBeNull();
    expect(
      through('opencode', {
        hook_event_name: 'session.idle',
        directory,
        event: { type: 'session.idle', properties: { sessionID: 'ses_1' } },
      }),
    ).toEqual({
      hook_event_name: 'Stop',
      session_id: 'ses_1',
      cwd: directory,
      stop_hook_active: false,
    });
    expect(through('opencode', { hook_event_name: 'session.start', sessionID: 'ses_1', directory })).toMatchObject({
      hook_event_name: 'SessionStart',
      session_id: 'ses_1',
    });
    expect(AGENTS.opencode.reply('session.start', { hookSpecificOutput: { additionalContext: '# Context' } })).toEqual({
      system: '# Context',
    });
    expect(AGENTS.opencode.reply('chat.message', null)).toBeNull();
  });

  it('an agent the program does not know, or no payload, is nothing to do', () => {
    expect(adapt('windsurf', { hook_event_name: 'x' })).toBeNull();
    expect(adapt('cursor', null)).toBeNull();
  });
});
