#!/usr/bin/env node
/**
 * Mnemograph's Claude Code hook: one small program for every hook event of the plugin
 * (hooks/hooks.json). It reads the hook's JSON from stdin as Claude Code sends it and talks to
 * the running service over GraphQL with fetch — plain JavaScript, no imports beyond Node's own,
 * so a call costs a Node start-up and one request.
 *
 *   SessionStart      → startSession (the project's context, printed as additionalContext)
 *   UserPromptSubmit  → sessionPrompt (the prompt counted; its memories injected when configured)
 *   PostToolUse       → remember with the session id (the tool's output, bounded; the service redacts it)
 *   PreCompact        → checkpoint (trigger pre_compaction)
 *   SessionEnd        → endSession with the transcript read from transcript_path (its tail, bounded)
 *
 * Fail-open: whatever happens (service down, slow, refusing; bad input) the hook exits 0 within
 * its budget and prints nothing but a valid answer; MNEMOGRAPH_DEBUG=1 writes why to stderr.
 * Configuration (environment): docs/claude-code.md.
 */
import { createHash } from 'node:crypto';
import { closeSync, fstatSync, mkdirSync, openSync, readFileSync, readSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { pathToFileURL } from 'node:url';

const env = process.env;
const DEBUG = env.MNEMOGRAPH_DEBUG === '1';

function int(name, fallback, min, max) {
  const n = Number.parseInt(env[name] ?? '', 10);
  return Number.isFinite(n) ? Math.min(max, Math.max(min, n)) : fallback;
}

const CONFIG = {
  url: (env.MNEMOGRAPH_URL || 'http://127.0.0.1:4000').replace(/\/+$/, ''),
  apiKey: env.MNEMOGRAPH_API_KEY || '',
  namespace: env.MNEMOGRAPH_NAMESPACE || '',
  /** Per event: how long one request may take before the hook gives up (milliseconds). */
  timeoutMs: {
    SessionStart: int('MNEMOGRAPH_START_TIMEOUT_MS', 4_000, 100, 60_000),
    SessionEnd: int('MNEMOGRAPH_END_TIMEOUT_MS', 8_000, 100, 60_000),
    default: int('MNEMOGRAPH_TIMEOUT_MS', 2_000, 100, 60_000),
  },
  startChars: int('MNEMOGRAPH_START_CHARS', 8_000, 500, 40_000),
  injectPrompt: env.MNEMOGRAPH_INJECT_PROMPT === '1',
  promptTokens: int('MNEMOGRAPH_PROMPT_TOKENS', 400, 50, 4_000),
  promptLimit: int('MNEMOGRAPH_PROMPT_LIMIT', 5, 1, 20),
  toolChars: int('MNEMOGRAPH_TOOL_RESULT_CHARS', 2_000, 100, 20_000),
  minToolChars: int('MNEMOGRAPH_MIN_TOOL_RESULT_CHARS', 20, 0, 10_000),
  maxReadChars: int('MNEMOGRAPH_MAX_READ_CHARS', 12_000, 0, 10_000_000),
  skipTools: (env.MNEMOGRAPH_SKIP_TOOLS ?? 'mcp__mnemograph__*,mcp__plugin_mnemograph_*,TodoWrite,Edit,MultiEdit,Write,NotebookEdit')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean),
  transcriptChars: int('MNEMOGRAPH_TRANSCRIPT_CHARS', 40_000, 1_000, 10_000_000),
  harness: 'claude-code',
};

/** Bytes of stdin and of a transcript's tail read at most. */
const MAX_STDIN_BYTES = 4 * 1024 * 1024;
const MAX_TRANSCRIPT_BYTES = 2 * 1024 * 1024;

function debug(...parts) {
  if (DEBUG) process.stderr.write(`mnemograph-hook: ${parts.join(' ')}\n`);
}

/** Cut to `max` characters, marking the cut. */
function clip(text, max) {
  return text.length <= max ? text : `${text.slice(0, Math.max(0, max - 1))}…`;
}

/**
 * Cut to `max` characters at a line's end when one is in the second half (a line cut in the
 * middle is a line no memory has, which the echo guard cannot recognize), marking the cut on a
 * line of its own.
 */
export function clipLines(text, max) {
  if (text.length <= max) return text;
  const head = text.slice(0, Math.max(0, max - 2));
  const end = head.lastIndexOf('\n');
  return `${end >= max / 2 ? head.slice(0, end) : head}\n…`;
}

async function readStdin() {
  const chunks = [];
  let size = 0;
  for await (const chunk of process.stdin) {
    size += chunk.length;
    if (size > MAX_STDIN_BYTES) break;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

// ---------------------------------------------------------------------------- project, namespace, session

/** The project the session works in: Claude Code's project directory, else the hook's cwd. */
function projectDir(input) {
  return env.CLAUDE_PROJECT_DIR || input.cwd || process.cwd();
}

/** `MNEMOGRAPH_NAMESPACE`, else one per project: its folder's name and a short hash of its path. */
export function namespaceFor(dir) {
  if (CONFIG.namespace) return CONFIG.namespace;
  const name = basename(dir)
    .toLowerCase()
    .replace(/[^a-z0-9_.-]+/g, '-')
    .replace(/^[^a-z0-9]+/, '')
    .slice(0, 40);
  const hash = createHash('sha256').update(dir).digest('hex').slice(0, 8);
  return `cc-${name || 'project'}-${hash}`.slice(0, 64);
}

/**
 * A session ended and then resumed (`claude --resume`) keeps Claude Code's session id, but an
 * ended Mnemograph session stays ended: the resumed part is a new session, `<id>~<n>`, and the
 * hooks that follow find it in a small state file.
 */
function stateFile(sessionId) {
  const dir = join(tmpdir(), 'mnemograph-claude-code');
  return { dir, file: join(dir, `${createHash('sha256').update(sessionId).digest('hex').slice(0, 32)}.json`) };
}

function effectiveSession(sessionId) {
  try {
    const state = JSON.parse(readFileSync(stateFile(sessionId).file, 'utf8'));
    if (typeof state.sessionId === 'string') return state.sessionId;
  } catch {
    // no state: the session id as Claude Code gave it
  }
  return sessionId;
}

function saveEffectiveSession(sessionId, effective) {
  try {
    const { dir, file } = stateFile(sessionId);
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    writeFileSync(file, JSON.stringify({ sessionId: effective }), { mode: 0o600 });
  } catch (error) {
    debug('state not saved:', error.message);
  }
}

// ---------------------------------------------------------------------------- the service

class ServiceError extends Error {
  constructor(message, code) {
    super(message);
    this.code = code;
  }
}

async function graphql(query, variables, timeoutMs) {
  const headers = { 'content-type': 'application/json' };
  if (CONFIG.apiKey) headers.authorization = `Bearer ${CONFIG.apiKey}`;
  const response = await fetch(`${CONFIG.url}/graphql`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ query, variables }),
    signal: AbortSignal.timeout(timeoutMs),
  });
  const body = await response.json().catch(() => null);
  const error = body?.errors?.[0];
  if (error) throw new ServiceError(error.message, error.extensions?.code);
  if (!response.ok || !body?.data) throw new ServiceError(`HTTP ${response.status}`, 'HTTP');
  return body.data;
}

// ---------------------------------------------------------------------------- events

const START = `mutation($i: StartSessionInput!) { startSession(input: $i) { context chars session { sessionId } } }`;
const PROMPT = `mutation($ns: String, $s: String!, $p: String!, $r: Boolean, $l: Int, $t: Int) {
  sessionPrompt(namespace: $ns, sessionId: $s, prompt: $p, recall: $r, limit: $l, tokenBudget: $t) { counted memories prompt } }`;
const REMEMBER = `mutation($i: RememberInput!) { remember(input: $i) { memory { id } dedup { action } } }`;
const CHECKPOINT = `mutation($i: CheckpointInput!) { checkpoint(input: $i) { id } }`;
const END = `mutation($ns: String, $s: String!, $t: String) { endSession(namespace: $ns, sessionId: $s, transcript: $t) { status } }`;

async function sessionStart(input, ctx) {
  const variables = (sessionId) => ({
    i: {
      namespace: ctx.namespace,
      sessionId,
      maxChars: CONFIG.startChars,
      harness: CONFIG.harness,
      project: basename(ctx.project),
    },
  });
  let data;
  try {
    data = await graphql(START, variables(ctx.sessionId), ctx.timeoutMs);
  } catch (error) {
    // Resumed after its end: the rest of it is a session of its own.
    if (error.code !== 'CONFLICT') throw error;
    const next = nextSessionId(input.session_id, ctx.sessionId);
    data = await graphql(START, variables(next), ctx.timeoutMs);
    saveEffectiveSession(input.session_id, next);
  }
  const context = data.startSession.context;
  if (!context) return null;
  return { hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: context } };
}

function nextSessionId(original, current) {
  const n = current === original ? 1 : Number.parseInt(current.slice(original.length + 1), 10) || 1;
  return `${original}~${n + 1}`;
}

async function userPrompt(input, ctx) {
  const prompt = typeof input.prompt === 'string' ? input.prompt.trim() : '';
  if (!prompt) return null;
  const data = await graphql(
    PROMPT,
    {
      ns: ctx.namespace,
      s: ctx.sessionId,
      // Recall reads at most 4,000 characters of a query; the session keeps 300.
      p: clip(prompt, 4_000),
      r: CONFIG.injectPrompt,
      l: CONFIG.promptLimit,
      t: CONFIG.promptTokens,
    },
    ctx.timeoutMs,
  );
  const block = data.sessionPrompt.prompt;
  if (!CONFIG.injectPrompt || !block || data.sessionPrompt.memories === 0) return null;
  return { hookSpecificOutput: { hookEventName: 'UserPromptSubmit', additionalContext: block } };
}

/** Whether a tool's results are left out (MNEMOGRAPH_SKIP_TOOLS: names, or prefixes ending in *). */
export function skipped(toolName, patterns = CONFIG.skipTools) {
  return patterns.some((p) => (p.endsWith('*') ? toolName.startsWith(p.slice(0, -1)) : toolName === p));
}

/** What the tool was asked, in one short line. */
function inputSummary(toolInput) {
  if (!toolInput || typeof toolInput !== 'object') return '';
  const preferred = ['command', 'file_path', 'path', 'pattern', 'url', 'query', 'description', 'prompt'];
  for (const key of preferred) if (typeof toolInput[key] === 'string') return clip(toolInput[key].replace(/\s+/g, ' '), 200);
  const first = Object.values(toolInput).find((v) => typeof v === 'string');
  return first ? clip(first.replace(/\s+/g, ' '), 200) : '';
}

/** The text of a tool's response, whatever shape the tool gives it. */
export function responseText(response) {
  if (response == null) return '';
  if (typeof response === 'string') return response;
  if (Array.isArray(response))
    return response
      .map((part) => (typeof part === 'string' ? part : typeof part?.text === 'string' ? part.text : ''))
      .filter(Boolean)
      .join('\n');
  if (typeof response !== 'object') return String(response);
  if (typeof response.stdout === 'string' || typeof response.stderr === 'string') {
    const out = response.stdout ?? '';
    const err = response.stderr ? `\nstderr: ${response.stderr}` : '';
    return `${out}${err}`;
  }
  if (typeof response.file?.content === 'string') return response.file.content;
  if (typeof response.content === 'string') return response.content;
  if (Array.isArray(response.content)) return responseText(response.content);
  if (typeof response.result === 'string') return response.result;
  if (typeof response.output === 'string') return response.output;
  try {
    return JSON.stringify(response);
  } catch {
    return '';
  }
}

/**
 * The tool result as stored: its output, cut to the bound, with the tool and what it was asked
 * (kept beside it, in the memory's metadata, so the text is the output alone and the echo guard
 * sees a pasted-back memory as it is); null when the tool is skipped or its output is too short
 * or a large file read.
 */
export function toolResult(input, options = CONFIG) {
  const tool = typeof input.tool_name === 'string' ? input.tool_name : '';
  if (!tool || skipped(tool, options.skipTools)) return null;
  const text = responseText(input.tool_response).trim();
  if (text.length < options.minToolChars) return null;
  // A large file read teaches less than it costs: left out.
  if (tool === 'Read' && text.length > options.maxReadChars) return null;
  return { tool, asked: inputSummary(input.tool_input), content: clipLines(text, options.toolChars) };
}

async function postToolUse(input, ctx) {
  const result = toolResult(input);
  if (!result) return null;
  await graphql(
    REMEMBER,
    {
      i: {
        namespace: ctx.namespace,
        content: result.content,
        sessionId: ctx.sessionId,
        source: CONFIG.harness,
        tags: ['tool-result', `tool:${clip(result.tool, 60).toLowerCase()}`],
        metadata: { tool: result.tool, input: result.asked },
      },
    },
    ctx.timeoutMs,
  );
  return null;
}

/** The last `maxBytes` of a file (a transcript can grow large). */
function readTail(path, maxBytes) {
  const fd = openSync(path, 'r');
  try {
    const size = fstatSync(fd).size;
    const length = Math.min(size, maxBytes);
    const buffer = Buffer.alloc(length);
    readSync(fd, buffer, 0, length, size - length);
    const text = buffer.toString('utf8');
    // A cut first line is not JSON: dropped.
    return size > length ? text.slice(text.indexOf('\n') + 1) : text;
  } finally {
    closeSync(fd);
  }
}

function messageText(content, withTools) {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  const parts = [];
  for (const part of content) {
    if (part?.type === 'text' && typeof part.text === 'string') parts.push(part.text);
    else if (withTools && part?.type === 'tool_use')
      parts.push(`[used ${part.name}${inputSummary(part.input) ? `: ${inputSummary(part.input)}` : ''}]`);
  }
  return parts.join('\n');
}

/**
 * The conversation of a Claude Code transcript (JSONL: one event a line), as `User:` and
 * `Assistant:` turns, its last `maxChars` characters. Tool results are left out (they were
 * captured one by one); lines that are not JSON are skipped.
 */
export function transcriptText(jsonl, maxChars) {
  const turns = [];
  for (const line of jsonl.split('\n')) {
    if (!line.trim()) continue;
    let event;
    try {
      event = JSON.parse(line);
    } catch {
      continue;
    }
    const role = event?.message?.role ?? event?.type;
    if (event?.isMeta || (role !== 'user' && role !== 'assistant')) continue;
    const text = messageText(event.message?.content, role === 'assistant').trim();
    if (text) turns.push(`${role === 'user' ? 'User' : 'Assistant'}: ${text}`);
  }
  const text = turns.join('\n');
  return text.length <= maxChars ? text : text.slice(text.length - maxChars);
}

function readTranscript(path, maxChars) {
  if (typeof path !== 'string' || !path) return '';
  try {
    return transcriptText(readTail(path, MAX_TRANSCRIPT_BYTES), maxChars);
  } catch (error) {
    debug('transcript not read:', error.message);
    return '';
  }
}

async function preCompact(input, ctx) {
  const recent = readTranscript(input.transcript_path, 1_500);
  const lines = [`## Before ${input.trigger === 'manual' ? 'a manual' : 'an automatic'} compaction`];
  if (typeof input.custom_instructions === 'string' && input.custom_instructions.trim())
    lines.push(`Focus asked for: ${clip(input.custom_instructions.trim(), 300)}`);
  if (recent) lines.push('', recent);
  await graphql(
    CHECKPOINT,
    {
      i: {
        namespace: ctx.namespace,
        sessionId: ctx.sessionId,
        trigger: 'pre_compaction',
        digest: clip(lines.join('\n'), 2_000),
        harness: CONFIG.harness,
        project: basename(ctx.project),
      },
    },
    ctx.timeoutMs,
  );
  return null;
}

async function sessionEnd(input, ctx) {
  const transcript = readTranscript(input.transcript_path, CONFIG.transcriptChars);
  await graphql(END, { ns: ctx.namespace, s: ctx.sessionId, t: transcript || null }, ctx.timeoutMs);
  return null;
}

const HANDLERS = {
  SessionStart: sessionStart,
  UserPromptSubmit: userPrompt,
  PostToolUse: postToolUse,
  PreCompact: preCompact,
  SessionEnd: sessionEnd,
};

/** Until the hook knows its event: reading stdin may take this long. */
const STDIN_BUDGET_MS = 3_000;

function deadline(ms) {
  // The last word on the budget: whatever is still pending, the hook ends quietly.
  return setTimeout(() => process.exit(0), ms).unref();
}

async function main() {
  let timer = deadline(STDIN_BUDGET_MS);
  const input = JSON.parse(await readStdin());
  const event = input?.hook_event_name;
  const handler = HANDLERS[event];
  if (!handler || typeof input.session_id !== 'string' || !input.session_id) return;
  const project = projectDir(input);
  const ctx = {
    project,
    namespace: namespaceFor(project),
    sessionId: effectiveSession(input.session_id),
    timeoutMs: CONFIG.timeoutMs[event] ?? CONFIG.timeoutMs.default,
  };
  clearTimeout(timer);
  timer = deadline(ctx.timeoutMs + 500);
  const output = await handler(input, ctx);
  if (output) await new Promise((resolve) => process.stdout.write(`${JSON.stringify(output)}\n`, resolve));
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main()
    .catch((error) => debug(error?.code ?? '', error?.message ?? String(error)))
    .finally(() => process.exit(0));
}
