import { spawn } from 'node:child_process';
import { appendFileSync, existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { TEST_NEO4J_ENV } from './test-neo4j.js';

/**
 * Claude Code's side of the plugin's hooks, for tests and the hook bench: the hooks of
 * integrations/claude-code/hooks/hooks.json as shipped, run as Claude Code runs them — the
 * entries whose matcher matches the event, each command through a shell with CLAUDE_PLUGIN_ROOT
 * and CLAUDE_PROJECT_DIR set, the hook's JSON on stdin — with exit code, output and time.
 */

export const PLUGIN_ROOT = fileURLToPath(new URL('../../integrations/claude-code/', import.meta.url));

interface HookCommand {
  type: string;
  command: string;
  timeout?: number;
  /** Claude Code does not wait for an async hook (and does not enforce its timeout). */
  async?: boolean;
}

interface HooksFile {
  hooks: Record<string, Array<{ matcher?: string; hooks: HookCommand[] }>>;
}

export type HookEvent = 'SessionStart' | 'UserPromptSubmit' | 'PostToolUse' | 'PreCompact' | 'Stop' | 'SessionEnd';

export interface HookRun {
  event: HookEvent;
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
  /** The hook's timeout in hooks.json (milliseconds). */
  timeoutMs: number;
  /** stdout parsed as JSON (null when empty). */
  json: any;
}

export function shippedHooks(): HooksFile {
  return JSON.parse(readFileSync(`${PLUGIN_ROOT}hooks/hooks.json`, 'utf8')) as HooksFile;
}

/** What a matcher is matched against, per event (the hooks reference). */
function matchTarget(event: HookEvent, payload: Record<string, unknown>): string | null {
  if (event === 'PostToolUse') return String(payload.tool_name ?? '');
  if (event === 'SessionStart') return String(payload.source ?? '');
  if (event === 'PreCompact') return String(payload.trigger ?? '');
  if (event === 'SessionEnd') return String(payload.reason ?? '');
  return null;
}

function matches(matcher: string | undefined, target: string | null): boolean {
  if (!matcher || matcher === '*' || target === null) return true;
  return new RegExp(`^(?:${matcher})$`).test(target);
}

export interface HookRunner {
  /** Runs every shipped command of the event whose matcher matches the payload; one HookRun per command. */
  run(event: HookEvent, payload: Record<string, unknown>): Promise<HookRun[]>;
}

export function hookRunner(options: { env: Record<string, string>; projectDir: string }): HookRunner {
  const hooks = shippedHooks();
  return {
    async run(event, payload) {
      const body = { hook_event_name: event, cwd: options.projectDir, ...payload };
      const entries = (hooks.hooks[event] ?? []).filter((e) => matches(e.matcher, matchTarget(event, body)));
      const runs: HookRun[] = [];
      for (const entry of entries) for (const hook of entry.hooks) runs.push(await runCommand(event, hook, JSON.stringify(body), options));
      return runs;
    },
  };
}

function runCommand(event: HookEvent, hook: HookCommand, stdin: string, options: { env: Record<string, string>; projectDir: string }) {
  const timeoutMs = (hook.timeout ?? 60) * 1000;
  return new Promise<HookRun>((resolve, reject) => {
    const started = performance.now();
    const child = spawn('sh', ['-c', hook.command], {
      cwd: options.projectDir,
      env: { ...process.env, ...options.env, CLAUDE_PLUGIN_ROOT: PLUGIN_ROOT.replace(/\/$/, ''), CLAUDE_PROJECT_DIR: options.projectDir },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    // Claude Code's own limit: a hook past its timeout is killed.
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      const ms = performance.now() - started;
      let json: unknown = null;
      if (stdout.trim()) json = JSON.parse(stdout);
      resolve({ event, code, stdout, stderr, ms, timeoutMs, json });
    });
    child.stdin.end(stdin);
  });
}

/** A Claude Code transcript (JSONL) as the session writes it: user and assistant messages, tool uses. */
export class Transcript {
  constructor(readonly path: string) {}

  user(text: string): void {
    this.append({ type: 'user', message: { role: 'user', content: text } });
  }

  assistant(text: string, tool?: { name: string; input: Record<string, unknown> }): void {
    const content: unknown[] = [{ type: 'text', text }];
    if (tool) content.push({ type: 'tool_use', id: `toolu_${Math.random().toString(36).slice(2)}`, name: tool.name, input: tool.input });
    this.append({ type: 'assistant', message: { role: 'assistant', content } });
  }

  private append(event: Record<string, unknown>): void {
    appendFileSync(this.path, `${JSON.stringify({ ...event, timestamp: new Date().toISOString() })}\n`);
  }
}

/** The service process the plugin's tests run the hooks against: its worker on the test namespace alone. */
export function pluginServiceEnv(namespace: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    ...TEST_NEO4J_ENV,
    HOST: '127.0.0.1',
    PORT: '0',
    LOG_LEVEL: 'warn',
    OLLAMA_HOST: 'http://127.0.0.1:9',
    WORKER_POLL_MS: '200',
    SERVICE_PROCESS_WORKER_NAMESPACES: namespace,
    ...extra,
  };
}

/** A GraphQL call to the service at `origin()` (no key); an error answer throws. */
export function graphqlClient(origin: () => string) {
  return async <T = any>(query: string, variables: Record<string, unknown>): Promise<T> => {
    const response = await fetch(`${origin()}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query, variables }),
    });
    const body = (await response.json()) as { data: T; errors?: unknown[] };
    if (body.errors) throw new Error(JSON.stringify(body.errors));
    return body.data;
  };
}

/** Events still waiting in the outboxes of every project under a plugin data folder (${CLAUDE_PLUGIN_DATA}). */
export function outboxDepth(pluginData: string): number {
  const projects = join(pluginData, 'projects');
  if (!existsSync(projects)) return 0;
  return readdirSync(projects).reduce((n, p) => {
    const dir = join(projects, p, 'outbox');
    return n + (existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.json')).length : 0);
  }, 0);
}
