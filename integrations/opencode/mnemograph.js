/**
 * Mnemograph for OpenCode: a plugin (copy it to ~/.config/opencode/plugins/ or
 * <project>/.opencode/plugins/) that hands OpenCode's hooks to the same hook program as Claude
 * Code's plugin, `mnemograph-hook.mjs --agent opencode`, which journals and sends them (the
 * outbox, event ids, <private> spans, fail-open: docs/claude-code.md). It only forwards: each
 * hook's arguments go to the program on stdin as OpenCode gives them; hooks/agents.mjs turns
 * them into Claude Code's payload.
 *
 * OpenCode's plugin hooks (the `Hooks` type of @opencode-ai/plugin, anomalyco/opencode
 * packages/plugin/src/index.ts): `chat.message` (input {sessionID}, output {message, parts}),
 * `tool.execute.before` (input {tool, sessionID, callID}, output {args}), `tool.execute.after`
 * (input {tool, sessionID, callID}, output {title, output, metadata}), `event` ({event}; a turn's
 * end is {type: "session.idle", properties: {sessionID}}, packages/sdk/js/src/gen/types.gen.ts);
 * `experimental.chat.system.transform` (input {sessionID}, output {system: string[]}) is where
 * the session's start context goes, once per session.
 *
 * The program: MNEMOGRAPH_HOOK, else ~/mnemograph/integrations/claude-code/hooks/mnemograph-hook.mjs.
 */
import { spawn } from 'node:child_process';
import { homedir } from 'node:os';
import { join } from 'node:path';

const HOOK = process.env.MNEMOGRAPH_HOOK || join(homedir(), 'mnemograph', 'integrations', 'claude-code', 'hooks', 'mnemograph-hook.mjs');
/** How long a hook is waited for: the start (its context) at most the program's SessionStart budget, any other its 4 s. */
const START_WAIT_MS = 10_000;
const WAIT_MS = 5_000;

/**
 * Runs the program with one hook's arguments; resolves with what it printed (null: nothing, or
 * not in time). Waited for, so the events keep their order: a capture returns once journaled
 * (about a tenth of a second; the sending is the program's detached flusher's).
 */
function run(payload, waitMs = WAIT_MS) {
  return new Promise((resolve) => {
    let out = '';
    let child;
    try {
      child = spawn('node', [HOOK, '--agent', 'opencode'], { stdio: ['pipe', 'pipe', 'ignore'] });
    } catch {
      resolve(null);
      return;
    }
    const timer = setTimeout(() => resolve(null), waitMs);
    child.on('error', () => resolve(null));
    child.stdout.on('data', (d) => (out += d));
    child.on('close', () => {
      clearTimeout(timer);
      try {
        resolve(out.trim() ? JSON.parse(out) : null);
      } catch {
        resolve(null);
      }
    });
    child.stdin.on('error', () => undefined);
    child.stdin.end(JSON.stringify(payload));
  });
}

export const MnemographPlugin = async ({ directory }) => {
  /** Each call's arguments, from before the tool ran to after (the file an edit changed). */
  const args = new Map();
  const started = new Set();
  return {
    'experimental.chat.system.transform': async (input, output) => {
      const sessionID = input?.sessionID;
      if (!sessionID || started.has(sessionID)) return;
      started.add(sessionID);
      const reply = await run({ hook_event_name: 'session.start', sessionID, directory }, START_WAIT_MS);
      if (reply?.system && Array.isArray(output?.system)) output.system.push(reply.system);
    },
    'chat.message': async (input, output) => {
      await run({ hook_event_name: 'chat.message', directory, input, output: { parts: output?.parts ?? [] } });
    },
    'tool.execute.before': async (input, output) => {
      if (input?.callID) args.set(input.callID, output?.args);
    },
    'tool.execute.after': async (input, output) => {
      const callArgs = args.get(input?.callID);
      args.delete(input?.callID);
      await run({ hook_event_name: 'tool.execute.after', directory, input, args: callArgs, output });
    },
    event: async ({ event }) => {
      if (event?.type === 'session.idle') await run({ hook_event_name: 'session.idle', directory, event });
    },
  };
};
