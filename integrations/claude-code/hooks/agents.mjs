/**
 * The one adapter between other coding agents' hooks and Mnemograph's hook program
 * (mnemograph-hook.mjs, run with `--agent <name>`): each agent's hook payload becomes the
 * Claude Code payload the program reads, and the program's answer becomes what that agent
 * reads back. Plain JavaScript, no imports. The payload shapes are the agents' own, as their
 * documentation or source gives them (cited per agent below); the shipped configurations are
 * integrations/<agent>/, and test/structure/agent-hooks.test.ts feeds each documented shape
 * through here.
 *
 * What each agent lacks is left out rather than invented: Codex fires no session end (its
 * sessions end by the service's idle sweep and are summarized then), Cursor no compaction, OpenCode neither a session end nor a compaction hook.
 */

const str = (v) => (typeof v === 'string' ? v : '');
const obj = (v) => (v && typeof v === 'object' && !Array.isArray(v) ? v : {});

/** A JSON text held in a string (Cursor's MCP input), parsed; anything else as it is. */
function parsed(v) {
  if (typeof v !== 'string') return v;
  try {
    return JSON.parse(v);
  } catch {
    return v;
  }
}

/** The Claude Code events the program handles, renamed per agent; `timeouts` are what the shipped configuration declares (seconds). */
export const AGENTS = {
  'claude-code': {
    harness: 'claude-code',
    // hooks/hooks.json declares these async: Claude Code does not wait, so they send within their own budget.
    asyncEvents: ['PostToolUse', 'Stop'],
    toClaude: (p) => p,
    reply: (_native, output) => output,
  },

  /**
   * Codex CLI (~/.codex/hooks.json or <repo>/.codex/hooks.json): Claude Code's own shape — the
   * same event names and fields (session_id, transcript_path, cwd, hook_event_name, source,
   * prompt, tool_name, tool_input, tool_response, tool_use_id, stop_hook_active,
   * last_assistant_message) and the same hookSpecificOutput.additionalContext answer.
   * Source: openai/codex codex-rs/hooks/schema/generated/{session-start,user-prompt-submit,
   * post-tool-use,stop,pre-compact}.command.input.schema.json and session-start.command.output
   * .schema.json; the file's format: codex-rs/config/src/hook_config.rs (HooksFile, `timeout`
   * in seconds); https://developers.openai.com/codex/hooks. No SessionEnd event exists. Its
   * transcript is a rollout (JSONL of `response_item` messages), read by the program too.
   */
  codex: {
    harness: 'codex',
    asyncEvents: [],
    timeouts: { SessionStart: 10, UserPromptSubmit: 5, PostToolUse: 5, PreCompact: 5, Stop: 5 },
    toClaude: (p) => p,
    reply: (_native, output) => output,
  },

  /**
   * Gemini CLI (~/.gemini/settings.json or <project>/.gemini/settings.json, `hooks` by event,
   * `timeout` in milliseconds). Base input: session_id, transcript_path, cwd, hook_event_name,
   * timestamp; SessionStart {source}, SessionEnd {reason}, BeforeAgent {prompt}, AfterAgent
   * {prompt, prompt_response, stop_hook_active}, AfterTool {tool_name, tool_input,
   * tool_response: {llmContent, returnDisplay, error}}, PreCompress {trigger}; answers
   * hookSpecificOutput.additionalContext for SessionStart and BeforeAgent. Tool names:
   * run_shell_command, read_file, write_file, replace (Claude's Edit), write_todos.
   * Source: google-gemini/gemini-cli docs/hooks/reference.md and docs/hooks/index.md (event and
   * tool name mapping from Claude Code; GEMINI_PROJECT_DIR in the hook's environment).
   */
  gemini: {
    harness: 'gemini-cli',
    asyncEvents: [],
    timeouts: { SessionStart: 10, UserPromptSubmit: 5, PostToolUse: 5, PreCompact: 5, Stop: 5, SessionEnd: 5 },
    events: {
      SessionStart: 'SessionStart',
      BeforeAgent: 'UserPromptSubmit',
      AfterTool: 'PostToolUse',
      PreCompress: 'PreCompact',
      AfterAgent: 'Stop',
      SessionEnd: 'SessionEnd',
    },
    tools: { replace: 'Edit', write_file: 'Write', write_todos: 'TodoWrite' },
    toClaude(p, env) {
      const out = { ...p, hook_event_name: this.events[p.hook_event_name] ?? p.hook_event_name, cwd: env.GEMINI_PROJECT_DIR || p.cwd };
      if (typeof p.tool_name === 'string') out.tool_name = this.tools[p.tool_name] ?? p.tool_name;
      if (p.tool_response && typeof p.tool_response === 'object') {
        const r = p.tool_response;
        // llmContent is what the model was given: a string, or parts with text.
        out.tool_response =
          typeof r.llmContent === 'string' ? r.llmContent : Array.isArray(r.llmContent) ? r.llmContent : str(r.returnDisplay) || r;
      }
      if (p.hook_event_name === 'AfterAgent') out.last_assistant_message = str(p.prompt_response);
      return out;
    },
    reply(native, output) {
      const specific = output?.hookSpecificOutput;
      if (!specific) return output;
      return { ...output, hookSpecificOutput: { ...specific, hookEventName: native } };
    },
  },

  /**
   * Cursor (~/.cursor/hooks.json or <project>/.cursor/hooks.json, `{"version": 1, "hooks":
   * {event: [{command}]}}`). Every event: hook_event_name, conversation_id, generation_id,
   * workspace_roots; beforeSubmitPrompt {prompt, attachments} answered with {continue};
   * afterFileEdit {file_path, edits: [{old_string, new_string}]}; afterShellExecution
   * {command, output, duration}; stop {status, loop_count}. Source: Cursor's hooks
   * documentation (https://cursor.com/docs/agent/hooks) as its reference summarizes it at
   * https://cupcake.eqtylab.io/reference/harnesses/cursor (common fields, per-event fields,
   * responses). sessionStart {session_id, is_background_agent, composer_mode} answered with
   * {additional_context}, sessionEnd {conversation_id, workspace_roots}: newer Cursor builds, as
   * hooks written for them read them (woneway/ai-driven common/global_cursor/hooks/
   * session-start.sh; agentreplay/agentreplay agentreplay-plugins/agentreplay-hooks/hooks/cursor/
   * agentreplay-session-end.sh, which takes conversation_id as the session id). An older
   * Cursor fires no sessionStart: the program starts the session at its first event.
   */
  cursor: {
    harness: 'cursor',
    asyncEvents: [],
    implicitStart: true,
    events: {
      sessionStart: 'SessionStart',
      beforeSubmitPrompt: 'UserPromptSubmit',
      afterFileEdit: 'PostToolUse',
      afterShellExecution: 'PostToolUse',
      stop: 'Stop',
      sessionEnd: 'SessionEnd',
    },
    toClaude(p) {
      const roots = Array.isArray(p.workspace_roots) ? p.workspace_roots.filter((r) => typeof r === 'string') : [];
      const base = {
        hook_event_name: this.events[p.hook_event_name] ?? p.hook_event_name,
        session_id: str(p.conversation_id) || str(p.session_id),
        cwd: roots[0] || str(p.cwd),
        transcript_path: p.transcript_path,
      };
      switch (p.hook_event_name) {
        case 'sessionStart':
          return { ...base, source: 'startup' };
        case 'beforeSubmitPrompt':
          return { ...base, prompt: p.prompt };
        case 'afterFileEdit':
          // Claude Code's MultiEdit has the same shape: the file and its edits' new strings.
          return { ...base, tool_name: 'MultiEdit', tool_input: { file_path: p.file_path, edits: Array.isArray(p.edits) ? p.edits : [] } };
        case 'afterShellExecution':
          return { ...base, tool_name: 'Bash', tool_input: { command: p.command }, tool_response: { stdout: str(p.output), stderr: '' } };
        case 'stop':
          return { ...base, stop_hook_active: false };
        default:
          return base;
      }
    },
    reply(native, output) {
      if (native === 'sessionStart') {
        const context = output?.hookSpecificOutput?.additionalContext;
        return context ? { additional_context: context } : {};
      }
      // Cursor reads an answer from every hook; a prompt is never held back.
      return native === 'beforeSubmitPrompt' ? { continue: true } : {};
    },
  },

  /**
   * OpenCode: no command hooks; its plugin (integrations/opencode/mnemograph.js) hands each
   * plugin hook's arguments to the program as OpenCode gives them — `chat.message` {input:
   * {sessionID}, output: {parts}} (text parts: {type: "text", text}), `tool.execute.after`
   * {input: {tool, sessionID, callID}, args (from tool.execute.before), output: {title, output,
   * metadata}}, `session.idle` {event: {properties: {sessionID}}}, and `session.start`
   * {sessionID} from `experimental.chat.system.transform`, answered {system}. Source: the Hooks
   * type of @opencode-ai/plugin (anomalyco/opencode packages/plugin/src/index.ts), the
   * session.idle event (packages/sdk/js/src/gen/types.gen.ts), the edit and write tools'
   * parameters {filePath, oldString, newString, replaceAll} and {filePath, content}
   * (packages/opencode/src/tool/edit.ts, write.ts). MCP tools are named <server>_<tool>.
   */
  opencode: {
    harness: 'opencode',
    asyncEvents: [],
    implicitStart: true,
    timeouts: { SessionStart: 10, UserPromptSubmit: 5, PostToolUse: 5, Stop: 5 },
    events: {
      'session.start': 'SessionStart',
      'chat.message': 'UserPromptSubmit',
      'tool.execute.after': 'PostToolUse',
      'session.idle': 'Stop',
    },
    toClaude(p) {
      const input = obj(p.input);
      const base = {
        hook_event_name: this.events[p.hook_event_name] ?? p.hook_event_name,
        session_id: str(p.sessionID) || str(input.sessionID) || str(obj(obj(p.event).properties).sessionID),
        cwd: str(p.directory),
      };
      if (p.hook_event_name === 'chat.message') {
        const parts = Array.isArray(obj(p.output).parts) ? p.output.parts : [];
        const text = parts
          .filter((part) => part?.type === 'text' && !part.synthetic && typeof part.text === 'string')
          .map((part) => part.text);
        return { ...base, prompt: text.join('\n') };
      }
      if (p.hook_event_name === 'tool.execute.after') {
        const tool = str(input.tool);
        const a = obj(p.args);
        const response = { tool_response: str(obj(p.output).output), tool_use_id: str(input.callID) || undefined };
        if (tool === 'edit')
          return {
            ...base,
            ...response,
            tool_name: 'Edit',
            tool_input: { file_path: a.filePath, old_string: a.oldString, new_string: a.newString, replace_all: a.replaceAll },
          };
        if (tool === 'write')
          return { ...base, ...response, tool_name: 'Write', tool_input: { file_path: a.filePath, content: a.content } };
        // The memory tools themselves (mnemograph_*) are skipped as Claude Code's mcp__mnemograph__* are.
        const name = tool === 'todowrite' ? 'TodoWrite' : tool.startsWith('mnemograph_') ? `mcp__mnemograph__${tool.slice(11)}` : tool;
        return { ...base, ...response, tool_name: name, tool_input: a };
      }
      if (p.hook_event_name === 'session.idle') return { ...base, stop_hook_active: false };
      return base;
    },
    reply(native, output) {
      const context = output?.hookSpecificOutput?.additionalContext;
      return native === 'session.start' && context ? { system: context } : null;
    },
  },
};

/**
 * The agent's payload as the program reads it (Claude Code's), with the agent's own event
 * name kept beside it for the answer; null for an agent the program does not know.
 */
export function adapt(agent, payload, env = {}) {
  const adapter = AGENTS[agent];
  if (!adapter || !payload || typeof payload !== 'object') return null;
  const native = str(payload.hook_event_name);
  const input = adapter.toClaude(obj(payload), env);
  if (input.tool_input !== undefined) input.tool_input = parsed(input.tool_input);
  return { adapter, native, input };
}
