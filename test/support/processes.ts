import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { EventLoopDelay, ServiceMessage } from './service-process.js';

export type { EventLoopDelay } from './service-process.js';

/**
 * The one way tests and benchmarks start a process of their own: `spawnProcess` runs a command
 * with its output captured (stdout's JSON log lines parsed), its exit tracked and a stop that
 * escalates to SIGKILL. Two presets sit on it: `spawnReplica` (`src/main.ts` as `npm start`
 * runs it, reached over HTTP) and `forkService` (test/support/service-process.ts: the service
 * and optionally a worker, talking over IPC).
 */

export const REPO = fileURLToPath(new URL('../../', import.meta.url));
const MODEL_DIR = fileURLToPath(new URL('../../.models/', import.meta.url));
const SERVICE_PROCESS = fileURLToPath(new URL('./service-process.ts', import.meta.url));
/** `npm start`'s entry point, as node runs it. */
export const MAIN_ARGS = ['--import', 'tsx', 'src/main.ts'];
/** How much of the output is kept (the tail). */
const OUTPUT_TAIL_CHARS = 200_000;

export interface SpawnOptions {
  /** Names the process in errors. */
  name: string;
  /** Default: this Node binary. */
  command?: string;
  args: string[];
  /** Default: the repository root. */
  cwd?: string;
  /** Added to this process's environment, or the whole environment when `inheritEnv` is false. */
  env?: Record<string, string>;
  inheritEnv?: boolean;
  /** A process group of its own, as a supervisor starts a service. */
  detached?: boolean;
  /** An IPC channel (`child.send`, `message` events), as `fork` opens. */
  ipc?: boolean;
}

export interface TestProcess {
  readonly name: string;
  readonly child: ChildProcess;
  /** Every line written to stdout so far, parsed as JSON (a line that is not JSON kept as `{ msg }`). */
  readonly logs: Record<string, unknown>[];
  /** The tail of stdout and stderr as written. */
  output(): string;
  /** The tail of stderr alone. */
  stderr(): string;
  /** Resolves with the exit code (null after a signal); rejects if the process could not start. */
  readonly exited: Promise<number | null>;
  hasExited(): boolean;
  /** Resolves once a log line passes `test`; fails if the process exits first or `timeoutMs` pass. */
  waitForLog(test: (line: Record<string, unknown>) => boolean, what: string, timeoutMs: number): Promise<void>;
  /** Sends `signal` (SIGTERM), then SIGKILL after `graceMs`; resolves with the exit code. */
  stop(signal?: NodeJS.Signals, graceMs?: number): Promise<number | null>;
}

export function spawnProcess(options: SpawnOptions): TestProcess {
  const child = spawn(options.command ?? process.execPath, options.args, {
    cwd: options.cwd ?? REPO,
    env: options.inheritEnv === false ? { ...options.env } : { ...process.env, ...options.env },
    detached: options.detached ?? false,
    stdio: options.ipc ? ['ignore', 'pipe', 'pipe', 'ipc'] : ['ignore', 'pipe', 'pipe'],
  });
  const logs: Record<string, unknown>[] = [];
  const wakers: Array<() => void> = [];
  let output = '';
  let stderr = '';
  let pendingLine = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    const text = chunk.toString('utf8');
    output = (output + text).slice(-OUTPUT_TAIL_CHARS);
    const lines = (pendingLine + text).split('\n');
    pendingLine = lines.pop()!;
    for (const line of lines) {
      try {
        logs.push(JSON.parse(line) as Record<string, unknown>);
      } catch {
        logs.push({ msg: line });
      }
    }
    if (lines.length > 0) for (const wake of wakers.splice(0)) wake();
  });
  child.stderr!.on('data', (chunk: Buffer) => {
    const text = chunk.toString('utf8');
    output = (output + text).slice(-OUTPUT_TAIL_CHARS);
    stderr = (stderr + text).slice(-OUTPUT_TAIL_CHARS);
  });
  const exited = new Promise<number | null>((resolve, reject) => {
    child.once('exit', (code) => resolve(code));
    child.on('error', reject);
  });
  // Callers that never await the exit must not see an unhandled rejection.
  exited.catch(() => undefined);
  const hasExited = () => child.exitCode !== null || child.signalCode !== null;

  return {
    name: options.name,
    child,
    logs,
    output: () => output,
    stderr: () => stderr,
    exited,
    hasExited,
    async waitForLog(test, what, timeoutMs) {
      const deadline = Date.now() + timeoutMs;
      while (!logs.some(test)) {
        if (hasExited())
          throw new Error(`${options.name} exited (${child.exitCode ?? child.signalCode}) before ${what}: ${stderr.slice(-1_000)}`);
        if (Date.now() > deadline) throw new Error(`no ${what} from ${options.name} within ${timeoutMs} ms`);
        await new Promise<void>((resolve) => {
          wakers.push(resolve);
          setTimeout(resolve, 100);
        });
      }
    },
    async stop(signal = 'SIGTERM', graceMs = 15_000) {
      if (hasExited()) return exited;
      child.kill(signal);
      const timer = signal === 'SIGKILL' ? undefined : setTimeout(() => child.kill('SIGKILL'), graceMs);
      try {
        return await exited;
      } finally {
        clearTimeout(timer);
      }
    },
  };
}

// ---------- a replica: src/main.ts over HTTP ----------

/** One Mnemograph replica: `node --import tsx src/main.ts` in a child process, as `npm start` runs it. */
export interface ServiceProcess extends TestProcess {
  readonly origin: string;
  /** Polls GET /health/ready until 200; fails with the process's last words if it exits or times out. */
  waitReady(timeoutMs?: number): Promise<{ readyAfterMs: number; body: unknown }>;
  health(): Promise<{ status: number; body: any }>;
  /** POST /graphql; returns status, headers and the parsed body. */
  post(body: Record<string, unknown>, headers?: Record<string, string>): Promise<{ status: number; headers: Headers; body: any }>;
}

export interface ReplicaOptions {
  name: string;
  /** 48000–48099 are this suite's. */
  port: number;
  neo4jUri: string;
  neo4jPassword: string;
  env?: Record<string, string>;
}

export function spawnReplica(options: ReplicaOptions): ServiceProcess {
  const started = performance.now();
  const proc = spawnProcess({
    name: options.name,
    args: MAIN_ARGS,
    env: {
      NEO4J_URI: options.neo4jUri,
      NEO4J_PASSWORD: options.neo4jPassword,
      EMBEDDING_MODEL_DIR: process.env.EMBEDDING_MODEL_DIR ?? MODEL_DIR,
      EMBEDDING_THREADS: '1',
      HOST: '127.0.0.1',
      PORT: String(options.port),
      LOG_LEVEL: 'info',
      WORKER_ENABLED: 'false',
      ...options.env,
    },
  });
  const origin = `http://127.0.0.1:${options.port}`;
  const lastWords = () =>
    `${options.name}: ${proc.stderr().slice(-1500)} ${proc.logs
      .slice(-5)
      .map((l) => JSON.stringify(l))
      .join('\n')}`;

  return {
    ...proc,
    origin,
    async health() {
      const response = await fetch(`${origin}/health/ready`);
      return { status: response.status, body: await response.json() };
    },
    async waitReady(timeoutMs = 240_000) {
      const deadline = Date.now() + timeoutMs;
      let last = 'no answer';
      while (Date.now() < deadline) {
        if (proc.hasExited()) throw new Error(`${options.name} exited with ${proc.child.exitCode} before it was ready; ${lastWords()}`);
        try {
          const { status, body } = await this.health();
          if (status === 200) return { readyAfterMs: Math.round(performance.now() - started), body };
          last = `HTTP ${status} ${JSON.stringify(body)}`;
        } catch (error) {
          last = (error as Error).message;
        }
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
      throw new Error(`${options.name} not ready after ${timeoutMs} ms (last: ${last}); ${lastWords()}`);
    },
    async post(body, headers = {}) {
      const response = await fetch(`${origin}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify(body),
      });
      const text = await response.text();
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        throw new Error(`${options.name}: expected JSON from POST /graphql (HTTP ${response.status}), got ${text.slice(0, 200)}`);
      }
      return { status: response.status, headers: response.headers, body: parsed };
    },
  };
}

// ---------- the service process: test/support/service-process.ts over IPC ----------

export interface ServiceChild extends TestProcess {
  url: string | null;
  workerId: string | null;
  pid: number;
  eventLoopDelay(options?: { reset?: boolean }): Promise<EventLoopDelay>;
}

/**
 * Starts test/support/service-process.ts with `env` added to this process's environment (the
 * service's own settings plus SERVICE_PROCESS_*); resolves once it serves.
 */
export async function forkService(env: Record<string, string>, options: { readyTimeoutMs?: number } = {}): Promise<ServiceChild> {
  const proc = spawnProcess({ name: 'service process', args: ['--import', 'tsx', SERVICE_PROCESS], env, ipc: true });
  const { child } = proc;
  const ready = await new Promise<Extract<ServiceMessage, { type: 'ready' }>>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`service process did not become ready in time; output:\n${proc.output().slice(-3000)}`)),
      options.readyTimeoutMs ?? 180_000,
    );
    child.on('message', (message: ServiceMessage) => {
      if (message.type === 'ready') {
        clearTimeout(timer);
        resolve(message);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`service process exited (${code}) before it was ready; output:\n${proc.output().slice(-3000)}`));
    });
  });
  return {
    ...proc,
    url: ready.url,
    workerId: ready.workerId,
    pid: ready.pid,
    eventLoopDelay: (opts = {}) =>
      new Promise((resolve) => {
        const onMessage = (message: ServiceMessage) => {
          if (message.type !== 'eld') return;
          child.off('message', onMessage);
          const { type: _type, ...delay } = message;
          resolve(delay);
        };
        child.on('message', onMessage);
        child.send({ type: 'eld', reset: opts.reset ?? false });
      }),
  };
}
