#!/usr/bin/env node
/**
 * Mnemograph's Claude Code hook: one small program for every hook event of the plugin
 * (hooks/hooks.json). It reads the hook's JSON from stdin as Claude Code sends it and talks to
 * the running service over GraphQL with fetch — plain JavaScript, no imports beyond Node's own.
 *
 *   SessionStart      → startSession (the project's context, printed as additionalContext)
 *   UserPromptSubmit  → sessionPrompt (the prompt counted; its memories injected when configured)
 *   PostToolUse       → remember with the session id (the tool's output, bounded; a file edit as
 *                       one short record: path, kind, an excerpt of what was added)
 *   PreCompact        → checkpoint (trigger pre_compaction)
 *   Stop              → checkpoint (trigger agent: the last turns, the files changed), at most one a minute
 *   SessionEnd        → endSession with the transcript read from transcript_path (its tail, bounded)
 *
 * Nothing is lost: every event is first written to an outbox — one file per event under
 * ${CLAUDE_PLUGIN_DATA} (else a per-user folder), owner-only — with an id of its own, and
 * removed only when the service has answered it. Whatever is pending is sent oldest first, by
 * one hook at a time (a lock file), bounded in count and time; what is not sent stays for the
 * next hook. The service applies each event id once, so a request whose answer came late and
 * is sent again changes nothing. `<private>…</private>` spans are cut out before anything is
 * written or sent.
 *
 * Never slows the agent: stdin is parsed as soon as one whole JSON object has arrived; every
 * budget ends inside the timeout hooks.json declares (read from it); the hooks that print
 * nothing leave the sending to a detached flusher (or are declared async) and exit at once.
 *
 * Fail-open: whatever happens (service down, slow, refusing; bad input) the hook exits 0 within
 * its budget and prints nothing but a valid answer; MNEMOGRAPH_DEBUG=1 writes why to stderr.
 * `node mnemograph-hook.mjs --status` prints the service's reachability, the namespace, the
 * outbox's depth, what was dropped and the last error. Configuration: docs/claude-code.md.
 *
 * Other agents run this same program from their own hooks with `--agent codex|gemini|cursor|opencode`:
 * agents.mjs turns their payloads into Claude Code's and the answer back (docs/other-agents.md).
 */
import { spawn } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import {
  appendFileSync,
  closeSync,
  fstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  realpathSync,
  renameSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { homedir } from 'node:os';
import { basename, isAbsolute, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AGENTS, adapt } from './agents.mjs';

const env = process.env;
const DEBUG = env.MNEMOGRAPH_DEBUG === '1';
const SELF = fileURLToPath(import.meta.url);

function int(name, fallback, min, max) {
  const n = Number.parseInt(env[name] ?? '', 10);
  return Number.isFinite(n) ? Math.min(max, Math.max(min, n)) : fallback;
}

/** A plugin option set with `claude plugin configure` (userConfig in plugin.json), as Claude Code passes it. */
const option = (key) => env[`CLAUDE_PLUGIN_OPTION_${key}`] || '';

const CONFIG = {
  url: (env.MNEMOGRAPH_URL || option('URL') || 'http://127.0.0.1:4000').replace(/\/+$/, ''),
  apiKey: env.MNEMOGRAPH_API_KEY || option('API_KEY') || '',
  namespace: env.MNEMOGRAPH_NAMESPACE || option('NAMESPACE') || '',
  /** How long the request whose answer the hook prints may take (milliseconds), within the hook's budget. */
  timeoutMs: {
    SessionStart: int('MNEMOGRAPH_START_TIMEOUT_MS', 8_000, 100, 60_000),
    default: int('MNEMOGRAPH_TIMEOUT_MS', 3_000, 100, 60_000),
  },
  /** Claude Code shows at most 10,000 characters of a hook's context (more becomes a preview). */
  startChars: int('MNEMOGRAPH_START_CHARS', 8_000, 500, 9_500),
  injectPrompt: env.MNEMOGRAPH_INJECT_PROMPT === '1',
  promptTokens: int('MNEMOGRAPH_PROMPT_TOKENS', 400, 50, 4_000),
  promptLimit: int('MNEMOGRAPH_PROMPT_LIMIT', 5, 1, 20),
  toolChars: int('MNEMOGRAPH_TOOL_RESULT_CHARS', 2_000, 100, 20_000),
  minToolChars: int('MNEMOGRAPH_MIN_TOOL_RESULT_CHARS', 20, 0, 10_000),
  maxReadChars: int('MNEMOGRAPH_MAX_READ_CHARS', 12_000, 0, 10_000_000),
  skipTools: (env.MNEMOGRAPH_SKIP_TOOLS ?? 'mcp__mnemograph__*,mcp__plugin_mnemograph_*,TodoWrite')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean),
  /** File edits (Edit, MultiEdit, Write, NotebookEdit) as short records; MNEMOGRAPH_CAPTURE_EDITS=0 leaves them out. */
  captureEdits: env.MNEMOGRAPH_CAPTURE_EDITS !== '0',
  editChars: int('MNEMOGRAPH_EDIT_CHARS', 400, 0, 4_000),
  transcriptChars: int('MNEMOGRAPH_TRANSCRIPT_CHARS', 40_000, 1_000, 10_000_000),
  /** Seconds between two Stop checkpoints of a session (0: every turn's end). */
  stopEverySeconds: int('MNEMOGRAPH_STOP_CHECKPOINT_SECONDS', 60, 0, 86_400),
  outbox: {
    /** Entries kept at most; past it the oldest are dropped (and counted). */
    maxEntries: int('MNEMOGRAPH_OUTBOX_MAX_ENTRIES', 2_000, 10, 1_000_000),
    /** Entries one flush sends at most. */
    flushEntries: int('MNEMOGRAPH_FLUSH_ENTRIES', 200, 1, 10_000),
    /** How long the detached flusher may run (milliseconds). */
    flushBudgetMs: int('MNEMOGRAPH_FLUSH_BUDGET_MS', 25_000, 500, 600_000),
    /** How long one request of a flush may take (milliseconds). */
    requestMs: int('MNEMOGRAPH_FLUSH_REQUEST_MS', 8_000, 100, 60_000),
  },
  /** MNEMOGRAPH_BACKGROUND=0: the hooks that print nothing send within their own budget instead of a detached flusher. */
  background: env.MNEMOGRAPH_BACKGROUND !== '0',
  harness: 'claude-code',
};

/** Bytes of stdin read at most: past it the payload is trimmed (its head kept, closed as JSON). */
const MAX_STDIN_BYTES = 8 * 1024 * 1024;
const MAX_TRANSCRIPT_BYTES = 2 * 1024 * 1024;
/** Until the hook knows its event: reading stdin may take this long. */
const STDIN_BUDGET_MS = 1_000;
/** Kept between the hook's own deadline and the timeout hooks.json declares. */
const MARGIN_MS = 1_000;
/** A lock older than this belongs to a flusher that died: taken over. */
const STALE_LOCK_MS = 120_000;
const KNOWN_EVENTS = ['SessionStart', 'UserPromptSubmit', 'PostToolUse', 'PreCompact', 'Stop', 'SessionEnd'];

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

// ---------------------------------------------------------------------------- private spans

const OPEN = '<private>';
const CLOSE = '</private>';

/** The text without its `<private>…</private>` spans (any letter case; an unclosed one runs to the end). Linear. */
export function stripPrivate(text) {
  if (typeof text !== 'string') return text;
  const lower = text.toLowerCase();
  if (!lower.includes(OPEN)) return text;
  let out = '';
  let at = 0;
  for (;;) {
    const open = lower.indexOf(OPEN, at);
    if (open < 0) return out + text.slice(at);
    out += text.slice(at, open);
    const close = lower.indexOf(CLOSE, open + OPEN.length);
    if (close < 0) return out;
    at = close + CLOSE.length;
  }
}

/** Every string of a JSON value with its private spans cut out. */
export function withoutPrivate(value) {
  if (typeof value === 'string') return stripPrivate(value);
  if (Array.isArray(value)) return value.map(withoutPrivate);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withoutPrivate(v)]));
  return value;
}

// ---------------------------------------------------------------------------- stdin

/**
 * Follows a JSON text as it arrives, to know when its first object is complete without waiting
 * for EOF: the nesting depth outside strings. Linear in the bytes seen.
 */
export class JsonScanner {
  depth = 0;
  inString = false;
  escaped = false;
  started = false;
  /** Offset (in characters of what was pushed) just past the end of the first object, or -1. */
  end = -1;
  /** The open containers, innermost last ('{' or '['). */
  stack = [];
  seen = 0;

  push(text) {
    for (let i = 0; i < text.length && this.end < 0; i += 1) {
      const c = text[i];
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (c === '\\') this.escaped = true;
        else if (c === '"') this.inString = false;
      } else if (c === '"') this.inString = true;
      else if (c === '{' || c === '[') {
        this.started = true;
        this.stack.push(c);
      } else if (c === '}' || c === ']') {
        this.stack.pop();
        if (this.started && this.stack.length === 0) this.end = this.seen + i + 1;
      }
    }
    this.seen += text.length;
    return this.end >= 0;
  }

  /**
   * A head of a JSON text (cut anywhere), made whole: an open string closed, then every open
   * container closed; when that does not parse (cut inside a number, a key or a literal), the
   * head is cut back to its last separator outside strings and tried again. Null when nothing
   * parses. Linear per try, a few tries.
   */
  static close(head) {
    let text = head;
    for (let attempt = 0; attempt < 4 && text; attempt += 1) {
      const s = new JsonScanner();
      let cut = -1;
      // Where a cut leaves a closable head: before a `,`, after a `{` or `[`, outside strings.
      const scan = new JsonScanner();
      for (let i = 0; i < text.length; i += 1) {
        const inString = scan.inString;
        scan.push(text[i]);
        if (!inString && !scan.inString) {
          if (text[i] === ',') cut = i;
          else if (text[i] === '{' || text[i] === '[') cut = i + 1;
        }
      }
      s.push(text);
      let whole = text;
      if (s.inString) whole = `${s.escaped ? whole.slice(0, -1) : whole}…"`;
      for (let i = s.stack.length - 1; i >= 0; i -= 1) whole += s.stack[i] === '{' ? '}' : ']';
      try {
        return JSON.parse(whole);
      } catch {
        if (cut < 0 || cut >= text.length) return null;
        text = text.slice(0, cut);
      }
    }
    return null;
  }
}

/**
 * The hook's JSON from stdin, parsed as soon as one whole object has arrived (Claude Code may
 * leave stdin open); a payload past MAX_STDIN_BYTES is trimmed to its head, made whole.
 */
function readStdin(budgetMs) {
  return new Promise((resolve) => {
    const scanner = new JsonScanner();
    const chunks = [];
    let size = 0;
    let done = false;
    const finish = (value) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      process.stdin.pause();
      process.stdin.removeAllListeners('data');
      resolve(value);
    };
    const parse = () => {
      const text = chunks.join('');
      if (scanner.end >= 0) {
        try {
          return JSON.parse(text.slice(0, scanner.end));
        } catch {
          return null;
        }
      }
      return size > MAX_STDIN_BYTES ? JsonScanner.close(text) : null;
    };
    const timer = setTimeout(() => finish(parse()), budgetMs);
    process.stdin.setEncoding('utf8');
    process.stdin.on('data', (chunk) => {
      size += Buffer.byteLength(chunk);
      chunks.push(chunk);
      if (scanner.push(chunk) || size > MAX_STDIN_BYTES) finish(parse());
    });
    process.stdin.on('end', () => finish(parse()));
    process.stdin.on('error', () => finish(null));
  });
}

// ---------------------------------------------------------------------------- where things live

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

const hash = (text, n = 16) => createHash('sha256').update(text).digest('hex').slice(0, n);

/** The plugin's own folder: ${CLAUDE_PLUGIN_DATA}, else MNEMOGRAPH_DATA_DIR, else a per-user folder. */
export function dataDir() {
  if (env.CLAUDE_PLUGIN_DATA) return env.CLAUDE_PLUGIN_DATA;
  if (env.MNEMOGRAPH_DATA_DIR) return env.MNEMOGRAPH_DATA_DIR;
  const base =
    process.platform === 'win32'
      ? env.LOCALAPPDATA || join(homedir(), 'AppData', 'Local')
      : env.XDG_STATE_HOME || join(homedir(), '.local', 'state');
  return join(base, 'mnemograph-claude-code');
}

/** One folder per project (namespace): its outbox, its status, its sessions' state. */
export function projectHome(namespace) {
  const safe = namespace.replace(/[^A-Za-z0-9_.-]+/g, '_').slice(0, 64);
  return join(dataDir(), 'projects', `${safe}-${hash(namespace, 8)}`);
}

function ensureDir(dir) {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  return dir;
}

/** Writes a small file whole or not at all (a temporary file renamed over it), owner-only. */
function writeAtomic(file, text) {
  const tmp = `${file}.${process.pid}.${randomUUID().slice(0, 8)}.tmp`;
  writeFileSync(tmp, text, { mode: 0o600 });
  renameSync(tmp, file);
}

function readJson(file) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
}

// ---------------------------------------------------------------------------- session state

/**
 * A session ended and then resumed (`claude --resume`) keeps Claude Code's session id, but an
 * ended Mnemograph session stays ended: the resumed part is a new session, `<id>~<n>`. The
 * session's state file says which id it goes by and whether its end was written.
 */
function sessionFile(home, claudeSession) {
  return join(ensureDir(join(home, 'sessions')), `${hash(claudeSession, 32)}.json`);
}

function sessionState(home, claudeSession) {
  const state = readJson(sessionFile(home, claudeSession));
  return { sessionId: claudeSession, ended: false, lastStopAt: 0, ...(state && typeof state === 'object' ? state : {}) };
}

function saveSessionState(home, claudeSession, state) {
  try {
    writeAtomic(sessionFile(home, claudeSession), JSON.stringify(state));
  } catch (error) {
    debug('state not saved:', error.message);
  }
}

export function nextSessionId(original, current) {
  const n = current === original ? 1 : Number.parseInt(current.slice(original.length + 1), 10) || 1;
  return `${original}~${n + 1}`;
}

// ---------------------------------------------------------------------------- the outbox

/**
 * The outbox of one project: a folder of entries, one JSON file each, named so that the names
 * sort oldest first. An entry is written to a temporary name and renamed (a reader never sees
 * half of one) and removed only once the service has answered it.
 */
export class Outbox {
  constructor(home) {
    this.home = home;
    this.dir = join(home, 'outbox');
    this.lockFile = join(home, 'flush.lock');
    this.statusFile = join(home, 'status.json');
    this.locked = false;
  }

  /** Journals an event; returns the entry as stored. */
  append(entry) {
    ensureDir(this.dir);
    const stamp = `${String(Date.now()).padStart(15, '0')}-${String(process.hrtime.bigint() % 1_000_000_000n).padStart(9, '0')}`;
    const name = `${stamp}-${hash(entry.sessionId, 8)}-${randomUUID().slice(0, 8)}.json`;
    const stored = { ...entry, journaledAt: new Date().toISOString() };
    writeAtomic(join(this.dir, name), JSON.stringify(stored));
    return { ...stored, file: name };
  }

  /** Names of the pending entries, oldest first. */
  pending() {
    try {
      return readdirSync(this.dir)
        .filter((n) => n.endsWith('.json'))
        .sort();
    } catch {
      return [];
    }
  }

  read(name) {
    const entry = readJson(join(this.dir, name));
    return entry && typeof entry === 'object' ? { ...entry, file: name } : null;
  }

  remove(name) {
    try {
      unlinkSync(join(this.dir, name));
    } catch {
      // already removed (sent by another hook too: the service applies it once)
    }
  }

  /** Whether an entry of this session older than `name` is still pending (the session's order must hold). */
  olderOfSession(name, sessionId) {
    const tag = `-${hash(sessionId, 8)}-`;
    return this.pending().some((n) => n < name && n.includes(tag));
  }

  /** Takes the flush lock, or says another hook holds it. A lock left by a flusher that died is taken over. */
  lock() {
    ensureDir(this.home);
    for (let attempt = 0; attempt < 2; attempt += 1) {
      try {
        const fd = openSync(this.lockFile, 'wx', 0o600);
        writeFileSync(fd, JSON.stringify({ pid: process.pid, at: Date.now() }));
        closeSync(fd);
        this.locked = true;
        return true;
      } catch (error) {
        if (error.code !== 'EEXIST') return false;
        try {
          if (Date.now() - statSync(this.lockFile).mtimeMs < STALE_LOCK_MS) return false;
          // Renamed away first: of two hooks that find it stale, one wins the rename.
          const stale = `${this.lockFile}.${process.pid}.stale`;
          renameSync(this.lockFile, stale);
          unlinkSync(stale);
        } catch {
          return false;
        }
      }
    }
    return false;
  }

  unlock() {
    if (!this.locked) return;
    this.locked = false;
    try {
      unlinkSync(this.lockFile);
    } catch {
      // gone already
    }
  }

  isLocked() {
    try {
      return Date.now() - statSync(this.lockFile).mtimeMs < STALE_LOCK_MS;
    } catch {
      return false;
    }
  }

  status() {
    return { dropped: 0, rejected: 0, sent: 0, lastError: null, lastErrorAt: null, lastSentAt: null, ...(readJson(this.statusFile) ?? {}) };
  }

  /** Updates the status file (under the lock, or when losing an update costs nothing but a counter). */
  record(change) {
    try {
      ensureDir(this.home);
      const status = this.status();
      writeAtomic(this.statusFile, JSON.stringify({ ...status, ...change(status) }));
    } catch (error) {
      debug('status not saved:', error.message);
    }
  }

  /** Past the bound, the oldest entries are dropped and counted (under the lock). */
  trim(max = CONFIG.outbox.maxEntries) {
    const names = this.pending();
    if (names.length <= max) return 0;
    const drop = names.slice(0, names.length - max);
    for (const n of drop) this.remove(n);
    this.record((s) => ({ dropped: s.dropped + drop.length }));
    return drop.length;
  }
}

// ---------------------------------------------------------------------------- the service

class ServiceError extends Error {
  constructor(message, code, retriable) {
    super(message);
    this.code = code;
    this.retriable = retriable;
  }
}

/** Codes that say the same request may succeed later; any other GraphQL error is final for this entry. */
const RETRIABLE = new Set(['UNAUTHENTICATED', 'FORBIDDEN', 'RATE_LIMITED', 'UNAVAILABLE', 'TIMEOUT', 'INTERNAL', 'HTTP', 'NETWORK']);

async function graphql(query, variables, timeoutMs) {
  const headers = { 'content-type': 'application/json' };
  if (CONFIG.apiKey) headers.authorization = `Bearer ${CONFIG.apiKey}`;
  let response;
  try {
    response = await fetch(`${CONFIG.url}/graphql`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ query, variables }),
      signal: AbortSignal.timeout(Math.max(1, timeoutMs)),
    });
  } catch (error) {
    throw new ServiceError(error?.name === 'TimeoutError' ? 'no answer in time' : 'service unreachable', 'NETWORK', true);
  }
  const body = await response.json().catch(() => null);
  const error = body?.errors?.[0];
  if (error) {
    const code = error.extensions?.code ?? 'GRAPHQL';
    throw new ServiceError(error.message, code, RETRIABLE.has(code) || response.status >= 500);
  }
  if (!response.ok || !body?.data) throw new ServiceError(`HTTP ${response.status}`, 'HTTP', true);
  return body.data;
}

const START = `mutation($i: StartSessionInput!) { startSession(input: $i) { context chars session { sessionId } } }`;
const PROMPT = `mutation($ns: String, $s: String!, $p: String!, $r: Boolean, $l: Int, $t: Int, $e: String) {
  sessionPrompt(namespace: $ns, sessionId: $s, prompt: $p, recall: $r, limit: $l, tokenBudget: $t, eventId: $e) { counted memories prompt } }`;
const REMEMBER = `mutation($i: RememberInput!) { remember(input: $i) { memory { id } dedup { action } } }`;
const CHECKPOINT = `mutation($i: CheckpointInput!) { checkpoint(input: $i) { id } }`;
const END = `mutation($ns: String, $s: String!, $t: String) { endSession(namespace: $ns, sessionId: $s, transcript: $t) { status } }`;

/** The request of an entry, with the session id it goes by now. */
function request(entry, sessionId) {
  const d = entry.data;
  switch (entry.kind) {
    case 'start':
      return [START, { i: { ...d, namespace: entry.namespace, sessionId } }];
    case 'prompt':
      return [PROMPT, { ns: entry.namespace, s: sessionId, p: d.prompt, r: d.recall, l: d.limit, t: d.tokenBudget, e: entry.id }];
    case 'remember':
      return [REMEMBER, { i: { ...d, namespace: entry.namespace, sessionId, externalId: entry.id } }];
    case 'checkpoint':
      return [CHECKPOINT, { i: { ...d, namespace: entry.namespace, sessionId, eventId: entry.id } }];
    case 'end':
      return [END, { ns: entry.namespace, s: sessionId, t: d.transcript }];
    default:
      return null;
  }
}

function withoutEventId(variables) {
  const { e: _e, ...rest } = variables;
  if (!rest.i) return rest;
  const { eventId: _id, ...input } = rest.i;
  return { ...rest, i: input };
}

/**
 * Sends one entry; resolves with the service's answer. A start refused because that session has
 * ended (ended elsewhere, or idle) goes on as a session of its own, `<id>~<n>`.
 */
async function send(outbox, entry, timeoutMs) {
  const remap = outbox.status().remap ?? {};
  const moved = remap[entry.sessionId];
  const sessionId = moved && entry.file > moved.after ? moved.to : entry.sessionId;
  const req = request(entry, sessionId);
  if (!req) return null;
  try {
    return await graphql(req[0], req[1], timeoutMs);
  } catch (error) {
    // A service older than the event ids: sent without one (applied, if perhaps twice) rather than lost.
    if (error.code === 'GRAPHQL_VALIDATION_FAILED' && (entry.kind === 'prompt' || entry.kind === 'checkpoint'))
      return graphql(req[0].replace(', $e: String', '').replace(', eventId: $e', ''), withoutEventId(req[1]), timeoutMs);
    if (entry.kind !== 'start' || error.code !== 'CONFLICT') throw error;
    const next = nextSessionId(entry.claudeSession ?? entry.sessionId, sessionId);
    outbox.record((s) => ({ remap: { ...(s.remap ?? {}), [entry.sessionId]: { to: next, after: entry.file } } }));
    if (entry.claudeSession)
      saveSessionState(outbox.home, entry.claudeSession, { ...sessionState(outbox.home, entry.claudeSession), sessionId: next });
    return graphql(START, { i: { ...entry.data, namespace: entry.namespace, sessionId: next } }, timeoutMs);
  }
}

/**
 * Sends what is pending, oldest first, until the outbox is empty, `maxEntries` are sent or the
 * deadline nears; an entry is removed when answered, or when the service refuses it for good.
 * One flusher at a time: without the lock, nothing is sent (the holder sends it, or the next hook).
 */
export async function flush(outbox, options) {
  const total = { sent: 0, rejected: 0, failed: null, locked: false };
  const max = options.maxEntries ?? CONFIG.outbox.flushEntries;
  let idle = 0;
  for (;;) {
    const result = await flushOnce(outbox, { ...options, maxEntries: max - total.sent - total.rejected });
    Object.assign(total, { sent: total.sent + result.sent, rejected: total.rejected + result.rejected, failed: result.failed });
    total.locked ||= result.locked;
    // A hook that journaled while the lock was held left its entry to this flusher: looked for once the lock is let go.
    // One more pass at most when the last sent nothing (an entry it cannot read stays behind).
    const progress = result.sent + result.rejected > 0 || idle++ < 1;
    const more = !result.locked && !result.failed && progress && outbox.pending().length > 0;
    if (!more || total.sent + total.rejected >= max || options.deadline - Date.now() < 100) return total;
  }
}

async function flushOnce(outbox, { deadline, maxEntries = CONFIG.outbox.flushEntries, requestMs = CONFIG.outbox.requestMs }) {
  const result = { sent: 0, rejected: 0, failed: null, locked: false };
  if (!outbox.lock()) {
    result.locked = true;
    return result;
  }
  try {
    outbox.trim();
    let seen = 0;
    while (seen < maxEntries) {
      // Read again after each pass: entries other hooks journaled meanwhile are sent too.
      const names = outbox.pending().slice(0, maxEntries - seen);
      if (names.length === 0) break;
      for (const name of names) {
        const left = deadline - Date.now();
        if (left < 100) return result;
        seen += 1;
        const entry = outbox.read(name);
        if (!entry) continue;
        try {
          await send(outbox, entry, Math.min(requestMs, left - 50));
          outbox.remove(name);
          result.sent += 1;
        } catch (error) {
          if (error.retriable !== false) {
            result.failed = `${error.code ?? ''} ${error.message}`.trim();
            return result;
          }
          // Refused for good (a bad request): kept would block every later one.
          outbox.remove(name);
          result.rejected += 1;
          outbox.record((s) => ({
            rejected: s.rejected + 1,
            lastError: `${entry.kind}: ${error.code} ${error.message}`,
            lastErrorAt: now(),
          }));
        }
      }
    }
    return result;
  } finally {
    if (result.sent > 0) outbox.record((s) => ({ sent: s.sent + result.sent, lastSentAt: now() }));
    if (result.failed) outbox.record(() => ({ lastError: result.failed, lastErrorAt: now() }));
    outbox.unlock();
  }
}

const now = () => new Date().toISOString();

/** Starts a flusher that outlives the hook (detached, no stdio): the hook exits at once. */
function flushInBackground(outbox) {
  if (outbox.isLocked() || outbox.pending().length === 0) return;
  try {
    const child = spawn(process.execPath, [SELF, '--flush', outbox.home], {
      detached: true,
      stdio: 'ignore',
      windowsHide: true,
      env,
    });
    child.on('error', (error) => debug('flusher not started:', error.message));
    child.unref();
  } catch (error) {
    debug('flusher not started:', error.message);
  }
}

// ---------------------------------------------------------------------------- events → entries

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

export const EDIT_TOOLS = ['Edit', 'MultiEdit', 'Write', 'NotebookEdit'];

/**
 * A file edit as one short record: the file (relative to the project), the kind of change and
 * a bounded excerpt of what was added. Null when it is not an edit or names no file.
 */
export function editRecord(input, project, options = CONFIG) {
  const tool = input.tool_name;
  if (!EDIT_TOOLS.includes(tool)) return null;
  const args = input.tool_input && typeof input.tool_input === 'object' ? input.tool_input : {};
  const path = typeof args.file_path === 'string' ? args.file_path : typeof args.notebook_path === 'string' ? args.notebook_path : '';
  if (!path) return null;
  const rel = project && isAbsolute(path) && !relative(project, path).startsWith('..') ? relative(project, path) : path;
  let kind;
  let added;
  if (tool === 'Edit') {
    kind = args.replace_all ? 'edited (every occurrence)' : 'edited';
    added = args.new_string;
  } else if (tool === 'MultiEdit') {
    const edits = Array.isArray(args.edits) ? args.edits : [];
    kind = `edited (${edits.length} changes)`;
    added = edits.map((e) => (typeof e?.new_string === 'string' ? e.new_string : '')).join('\n');
  } else if (tool === 'Write') {
    kind = input.tool_response?.type === 'create' ? 'created' : 'written';
    added = args.content;
  } else {
    kind = `notebook cell ${args.edit_mode === 'insert' ? 'inserted' : args.edit_mode === 'delete' ? 'deleted' : 'edited'}`;
    added = args.edit_mode === 'delete' ? '' : args.new_source;
  }
  const text = typeof added === 'string' ? added.trim() : '';
  const lines = text ? text.split('\n').length : 0;
  const excerpt = options.editChars > 0 && text ? clipLines(text, options.editChars) : '';
  const head = `${rel}: ${kind}${lines ? `, ${lines} line${lines === 1 ? '' : 's'} added` : ''}`;
  return { tool, file: rel, kind, content: excerpt ? `File changed: ${head}\n${excerpt}` : `File changed: ${head}` };
}

/**
 * The tool result as stored: its output, cut to the bound, with the tool and what it was asked
 * (kept beside it, in the memory's metadata, so the text is the output alone and the echo guard
 * sees a pasted-back memory as it is); a file edit as its short record; null when the tool is
 * skipped or its output is too short or a large file read.
 */
export function toolResult(input, options = CONFIG, project = '') {
  const tool = typeof input.tool_name === 'string' ? input.tool_name : '';
  if (!tool || skipped(tool, options.skipTools)) return null;
  if (EDIT_TOOLS.includes(tool)) {
    if (!options.captureEdits) return null;
    const edit = editRecord(input, project, options);
    return edit && { tool, asked: edit.file, content: edit.content, edit };
  }
  const text = responseText(input.tool_response).trim();
  if (text.length < options.minToolChars) return null;
  // A large file read teaches less than it costs: left out.
  if (tool === 'Read' && text.length > options.maxReadChars) return null;
  return { tool, asked: inputSummary(input.tool_input), content: clipLines(text, options.toolChars) };
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
    // Codex's parts are input_text / output_text; its scaffolding (<environment_context>, …) is no turn.
    const textual = part?.type === 'text' || part?.type === 'input_text' || part?.type === 'output_text';
    if (textual && typeof part.text === 'string' && !/^<(environment_context|user_instructions|permissions instructions)>/.test(part.text))
      parts.push(part.text);
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
    // Claude Code: {type, message: {role, content}}; a Codex rollout: {type: 'response_item', payload: {type: 'message', role, content}}.
    const message = event?.type === 'response_item' && event.payload?.type === 'message' ? event.payload : event?.message;
    const role = message?.role ?? event?.type;
    if (event?.isMeta || (role !== 'user' && role !== 'assistant')) continue;
    const text = stripPrivate(messageText(message?.content, role === 'assistant')).trim();
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

/** The files a session changed, as its edits file lists them (newest last, each once). */
function editsFile(home, sessionId) {
  return join(ensureDir(join(home, 'sessions')), `${hash(sessionId, 32)}.edits.jsonl`);
}

function noteEdit(home, sessionId, edit) {
  try {
    appendFileSync(editsFile(home, sessionId), `${JSON.stringify({ file: edit.file, kind: edit.kind, at: now(), sessionId })}\n`, {
      mode: 0o600,
    });
  } catch (error) {
    debug('edit not noted:', error.message);
  }
}

function readEdits(file) {
  const files = new Map();
  let sessionId = null;
  try {
    for (const line of readFileSync(file, 'utf8').split('\n')) {
      if (!line) continue;
      try {
        const e = JSON.parse(line);
        sessionId = e.sessionId;
        files.delete(e.file);
        files.set(e.file, e.kind);
      } catch {
        // a line cut by a crash: skipped
      }
    }
  } catch {
    return null;
  }
  return { sessionId, files: [...files].map(([file, kind]) => ({ file, kind })) };
}

/** The files changed by the newest other session of the project that changed any. */
function lastSessionEdits(home, sessionId) {
  const dir = join(home, 'sessions');
  let newest = null;
  try {
    const own = `${hash(sessionId, 32)}.edits.jsonl`;
    for (const name of readdirSync(dir)) {
      if (!name.endsWith('.edits.jsonl') || name === own) continue;
      const mtime = statSync(join(dir, name)).mtimeMs;
      if (!newest || mtime > newest.mtime) newest = { name, mtime };
    }
  } catch {
    return null;
  }
  if (!newest) return null;
  const edits = readEdits(join(dir, newest.name));
  return edits && edits.files.length > 0 ? { ...edits, at: new Date(newest.mtime).toISOString() } : null;
}

/** The files section of the start context, within `maxChars`. */
export function filesSection(edits, maxChars) {
  if (!edits || maxChars < 80) return '';
  const title = `## Files changed in the last session (${edits.sessionId ?? 'unknown'}, ${edits.at.slice(0, 10)})`;
  const lines = [title];
  let size = title.length;
  const shown = edits.files.slice(-30).reverse();
  for (const [i, f] of shown.entries()) {
    const line = `- ${f.file} (${f.kind})`;
    if (size + line.length + 1 > maxChars - 30) {
      lines.push(`- …and ${shown.length - i} more`);
      break;
    }
    lines.push(line);
    size += line.length + 1;
  }
  return lines.join('\n');
}

/** The session's own changed files, one line (a checkpoint's digest). */
function changedFilesLine(home, sessionId) {
  const edits = readEdits(editsFile(home, sessionId));
  if (!edits || edits.files.length === 0) return '';
  return clip(`Files changed: ${edits.files.map((f) => f.file).join(', ')}`, 600);
}

/** The entry an event journals, or null when it has nothing to send. */
function entryFor(input, ctx) {
  const base = { namespace: ctx.namespace, sessionId: ctx.sessionId, claudeSession: input.session_id };
  switch (input.hook_event_name) {
    case 'SessionStart':
      return {
        ...base,
        kind: 'start',
        id: `start:${randomUUID()}`,
        data: { maxChars: CONFIG.startChars, harness: CONFIG.harness, project: basename(ctx.project) },
      };
    case 'UserPromptSubmit': {
      const prompt = typeof input.prompt === 'string' ? input.prompt.trim() : '';
      if (!prompt) return null;
      // Recall reads at most 4,000 characters of a query; the session keeps 300.
      return {
        ...base,
        kind: 'prompt',
        id: `prompt:${hash(`${ctx.sessionId}\u0000${prompt}`, 16)}:${randomUUID()}`,
        data: { prompt: clip(prompt, 4_000), recall: CONFIG.injectPrompt, limit: CONFIG.promptLimit, tokenBudget: CONFIG.promptTokens },
      };
    }
    case 'PostToolUse': {
      const result = toolResult(input, CONFIG, ctx.project);
      if (!result) return null;
      if (result.edit) noteEdit(ctx.home, ctx.sessionId, result.edit);
      const tags = ['tool-result', `tool:${clip(result.tool, 60).toLowerCase()}`];
      if (result.edit) tags.push('file-edit');
      const metadata = { tool: result.tool, input: result.asked };
      if (result.edit) Object.assign(metadata, { file: result.edit.file, change: result.edit.kind });
      return {
        ...base,
        kind: 'remember',
        id: `tool:${typeof input.tool_use_id === 'string' && input.tool_use_id ? clip(input.tool_use_id, 120) : randomUUID()}`,
        data: { content: result.content, source: CONFIG.harness, tags, metadata },
      };
    }
    case 'PreCompact': {
      const recent = readTranscript(input.transcript_path, 1_500);
      const lines = [`## Before ${input.trigger === 'manual' ? 'a manual' : 'an automatic'} compaction`];
      if (typeof input.custom_instructions === 'string' && input.custom_instructions.trim())
        lines.push(`Focus asked for: ${clip(input.custom_instructions.trim(), 300)}`);
      const files = changedFilesLine(ctx.home, ctx.sessionId);
      if (files) lines.push(files);
      if (recent) lines.push('', recent);
      return {
        ...base,
        kind: 'checkpoint',
        id: `compact:${randomUUID()}`,
        data: { trigger: 'pre_compaction', digest: clip(lines.join('\n'), 2_000), harness: CONFIG.harness, project: basename(ctx.project) },
      };
    }
    case 'Stop': {
      if (input.stop_hook_active) return null;
      const state = sessionState(ctx.home, input.session_id);
      if (Date.now() - (state.lastStopAt ?? 0) < CONFIG.stopEverySeconds * 1000) return null;
      // Without a transcript this program reads (Gemini CLI's), the turn's last answer as the agent gives it.
      const last = typeof input.last_assistant_message === 'string' ? input.last_assistant_message.trim() : '';
      const recent = readTranscript(input.transcript_path, 1_500) || (last ? `Assistant: ${clip(last, 1_500)}` : '');
      const files = changedFilesLine(ctx.home, ctx.sessionId);
      if (!recent && !files) return null;
      saveSessionState(ctx.home, input.session_id, { ...state, lastStopAt: Date.now() });
      const lines = ['## At the end of a turn'];
      if (files) lines.push(files);
      if (recent) lines.push('', recent);
      return {
        ...base,
        kind: 'checkpoint',
        id: `stop:${randomUUID()}`,
        data: { trigger: 'agent', digest: clip(lines.join('\n'), 2_000), harness: CONFIG.harness, project: basename(ctx.project) },
      };
    }
    case 'SessionEnd': {
      const transcript = readTranscript(input.transcript_path, CONFIG.transcriptChars);
      return { ...base, kind: 'end', id: `end:${ctx.sessionId}`, data: { transcript: transcript || null } };
    }
    default:
      return null;
  }
}

// ---------------------------------------------------------------------------- the hook

/** The timeout hooks.json declares for an event (seconds), read beside this file. */
export function declaredTimeout(event) {
  const hooks = readJson(join(SELF, '..', 'hooks.json'))?.hooks?.[event] ?? [];
  const timeouts = hooks.flatMap((e) => e.hooks ?? []).map((h) => h.timeout ?? 600);
  return timeouts.length > 0 ? Math.min(...timeouts) : 5;
}

/**
 * The whole hook's budget: the declared timeout less a margin (milliseconds). Another agent's
 * timeouts are the ones its shipped configuration declares (agents.mjs; a test keeps the two
 * equal); one it declares none for (Cursor) gets 5 s.
 */
export function budgetFor(event, adapter = AGENTS['claude-code']) {
  const seconds = adapter === AGENTS['claude-code'] ? declaredTimeout(event) : (adapter.timeouts?.[event] ?? 5);
  return Math.max(500, seconds * 1000 - MARGIN_MS);
}

/** Events whose hook prints an answer: their own entry is sent at once (when the session's order allows). */
function answers(event) {
  return event === 'SessionStart' || (event === 'UserPromptSubmit' && CONFIG.injectPrompt);
}

async function answer(event, data, ctx) {
  if (event === 'SessionStart') {
    const context = data?.startSession?.context ?? '';
    // The service lists the last summarized session's files itself; this machine's list of the last
    // session it saw is added when the service's is not that session's (not summarized yet: its end
    // job pending, or it died and the idle sweep has not run; or the service away).
    const edits = lastSessionEdits(ctx.home, ctx.sessionId);
    const served = edits !== null && context.includes(`\n## Files changed last session (session ${edits.sessionId})`);
    const files = served ? '' : filesSection(edits, 9_800 - context.length);
    const text = [context, files].filter(Boolean).join('\n\n');
    return text ? { hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: text } } : null;
  }
  const block = data?.sessionPrompt?.prompt;
  if (!block || data.sessionPrompt.memories === 0) return null;
  return { hookSpecificOutput: { hookEventName: 'UserPromptSubmit', additionalContext: block } };
}

/** The session id the event goes by, and for a start after an end written here, the next one. */
function resolveSession(input, home) {
  const state = sessionState(home, input.session_id);
  const event = input.hook_event_name;
  if (event === 'SessionStart' && state.ended) {
    const next = nextSessionId(input.session_id, state.sessionId);
    saveSessionState(home, input.session_id, { ...state, sessionId: next, ended: false });
    return next;
  }
  if (event === 'SessionEnd') saveSessionState(home, input.session_id, { ...state, ended: true });
  return state.sessionId;
}

/**
 * One hook event: `agent` names whose hook runs it (`--agent codex|gemini|cursor|opencode`; Claude Code
 * by default), whose payload agents.mjs turns into Claude Code's and whose answer it turns back.
 */
async function main(agent = 'claude-code') {
  const started = Date.now();
  // Until the event is known, the shortest declared timeout bounds the hook.
  let timer = deadlineExit(STDIN_BUDGET_MS + 500);
  const adapted = adapt(agent, await readStdin(STDIN_BUDGET_MS), env);
  if (!adapted) return;
  const { adapter, native } = adapted;
  const input = withoutPrivate(adapted.input);
  const event = input?.hook_event_name;
  if (!KNOWN_EVENTS.includes(event) || typeof input.session_id !== 'string' || !input.session_id) return;
  CONFIG.harness = adapter.harness;
  clearTimeout(timer);
  const deadline = started + budgetFor(event, adapter);
  timer = deadlineExit(deadline - Date.now());

  const project = projectDir(input);
  const namespace = namespaceFor(project);
  const home = ensureDir(projectHome(namespace));
  const outbox = new Outbox(home);
  process.on('exit', () => outbox.unlock());
  const ctx = { project, namespace, home, sessionId: resolveSession(input, home) };
  startOnce(adapter, input, ctx, outbox);
  const entry = entryFor(input, ctx);
  const own = entry ? outbox.append(entry) : null;

  let output = null;
  if (answers(event)) output = await answer(event, await sendOwn(outbox, own, event, deadline), ctx);
  const reply = adapter.reply(native, output);
  if (reply) await new Promise((resolve) => process.stdout.write(`${JSON.stringify(reply)}\n`, resolve));
  // The hooks the agent waits for hand the sending to a flusher of its own; the async ones send here.
  const inline = !CONFIG.background || adapter.asyncEvents.includes(event);
  if (inline) {
    const result = await flush(outbox, { deadline: deadline - 100 });
    debug(event, 'flushed', JSON.stringify(result));
  } else flushInBackground(outbox);
}

/** Sends the hook's own entry at once, unless an older one of the same session must go before it; the answer's data, or null. */
async function sendOwn(outbox, own, event, deadline) {
  if (!own || outbox.olderOfSession(own.file, own.sessionId)) return null;
  const timeoutMs = Math.min(CONFIG.timeoutMs[event] ?? CONFIG.timeoutMs.default, deadline - Date.now() - 200);
  try {
    const data = await send(outbox, own, timeoutMs);
    outbox.remove(own.file);
    return data;
  } catch (error) {
    debug(event, error.code ?? '', error.message);
    if (error.retriable === false) outbox.remove(own.file);
    return null;
  }
}

/**
 * For an agent that may fire no session start (an older Cursor), the session's first event
 * journals its start first; a start marks the session started.
 */
function startOnce(adapter, input, ctx, outbox) {
  const state = sessionState(ctx.home, input.session_id);
  if (state.started) return;
  if (adapter.implicitStart && input.hook_event_name !== 'SessionStart' && input.hook_event_name !== 'SessionEnd') {
    const start = entryFor({ ...input, hook_event_name: 'SessionStart' }, ctx);
    if (start) outbox.append(start);
  } else if (input.hook_event_name !== 'SessionStart') return;
  saveSessionState(ctx.home, input.session_id, { ...state, started: true });
}

function deadlineExit(ms) {
  // The last word on the budget: whatever is still pending, the hook ends quietly (and unlocks).
  return setTimeout(() => process.exit(0), Math.max(1, ms)).unref();
}

/** `--flush <project home>`: the detached flusher. */
async function flushMain(home) {
  const outbox = new Outbox(home);
  const deadline = Date.now() + CONFIG.outbox.flushBudgetMs;
  deadlineExit(CONFIG.outbox.flushBudgetMs + 500);
  process.on('exit', () => outbox.unlock());
  const result = await flush(outbox, { deadline });
  debug('flusher', JSON.stringify(result));
}

/** `--status [project dir]`: what a user asks when memory seems quiet. */
async function statusMain(dir) {
  const project = dir || env.CLAUDE_PROJECT_DIR || process.cwd();
  const namespace = namespaceFor(project);
  const outbox = new Outbox(projectHome(namespace));
  const status = outbox.status();
  let reachable;
  try {
    await graphql('query { __typename }', {}, 3_000);
    reachable = 'yes';
  } catch (error) {
    reachable = `no (${error.code ?? ''} ${error.message})`.replace('( ', '(');
  }
  const lines = [
    `service: ${CONFIG.url} (reachable: ${reachable})`,
    `api key: ${CONFIG.apiKey ? 'set' : 'not set'}`,
    `namespace: ${namespace}`,
    `explorer: ${CONFIG.url}/explorer/?namespace=${encodeURIComponent(namespace)}`,
    `outbox: ${outbox.pending().length} pending in ${outbox.dir}`,
    `sent: ${status.sent}${status.lastSentAt ? ` (last ${status.lastSentAt})` : ''}; dropped (outbox full): ${status.dropped}; refused by the service: ${status.rejected}`,
    `last error: ${status.lastError ? `${status.lastError} at ${status.lastErrorAt}` : 'none'}`,
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}

/** Whether this file is the program run (also through a symlinked path: Node runs the file it points to). */
function isMain() {
  try {
    return Boolean(process.argv[1]) && realpathSync(process.argv[1]) === realpathSync(SELF);
  } catch {
    return false;
  }
}

if (isMain()) {
  const [mode, arg, ...rest] = process.argv.slice(2);
  // `--url <url>`: the URL the plugin is configured with, as a command passes it (commands/status.md).
  const url = rest[0] === '--url' && /^https?:\/\//.test(rest[1] ?? '') ? rest[1] : '';
  if (url && !env.MNEMOGRAPH_URL) CONFIG.url = url.replace(/\/+$/, '');
  // `--agent <name>`: the hook of another agent (agents.mjs), its payload and answer in that agent's shape.
  const run =
    mode === '--flush'
      ? () => flushMain(arg)
      : mode === '--status'
        ? () => statusMain(arg)
        : () => main(mode === '--agent' ? arg : undefined);
  run()
    .catch((error) => debug(error?.code ?? '', error?.message ?? String(error)))
    .finally(() => process.exit(0));
}
