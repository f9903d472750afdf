import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const MODEL_DIR = fileURLToPath(new URL('../../.models/', import.meta.url));

/** One Mnemograph replica: `node --import tsx src/main.ts` in a child process, as `npm start` runs it. */
export interface ServiceProcess {
  readonly name: string;
  readonly origin: string;
  readonly child: ChildProcess;
  /** Every JSON log line written to stdout so far. */
  readonly logs: Record<string, unknown>[];
  stderr(): string;
  /** Polls GET /health/ready until 200; fails with the process's last words if it exits or times out. */
  waitReady(timeoutMs?: number): Promise<{ readyAfterMs: number; body: unknown }>;
  health(): Promise<{ status: number; body: any }>;
  /** POST /graphql; returns status, headers and the parsed body. */
  post(body: Record<string, unknown>, headers?: Record<string, string>): Promise<{ status: number; headers: Headers; body: any }>;
  /** SIGTERM, then SIGKILL after `graceMs`; resolves with the exit code. */
  stop(graceMs?: number): Promise<number | null>;
}

export interface SpawnOptions {
  name: string;
  /** 48000–48099 are this suite's. */
  port: number;
  neo4jUri: string;
  neo4jPassword: string;
  env?: Record<string, string>;
}

export function spawnService(options: SpawnOptions): ServiceProcess {
  const started = performance.now();
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: REPO,
    env: {
      ...process.env,
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
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logs: Record<string, unknown>[] = [];
  let pendingLine = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    const lines = (pendingLine + chunk.toString('utf8')).split('\n');
    pendingLine = lines.pop()!;
    for (const line of lines) {
      try {
        logs.push(JSON.parse(line) as Record<string, unknown>);
      } catch {
        logs.push({ msg: line });
      }
    }
  });
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString('utf8')).slice(-20_000);
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  let exitCode: number | null | undefined;
  void exited.then((code) => (exitCode = code));
  const origin = `http://127.0.0.1:${options.port}`;
  const lastWords = () =>
    `${options.name}: ${stderr.slice(-1500)} ${logs
      .slice(-5)
      .map((l) => JSON.stringify(l))
      .join('\n')}`;

  return {
    name: options.name,
    origin,
    child,
    logs,
    stderr: () => stderr,
    async health() {
      const response = await fetch(`${origin}/health/ready`);
      return { status: response.status, body: await response.json() };
    },
    async waitReady(timeoutMs = 240_000) {
      const deadline = Date.now() + timeoutMs;
      let last = 'no answer';
      while (Date.now() < deadline) {
        if (exitCode !== undefined) throw new Error(`${options.name} exited with ${exitCode} before it was ready; ${lastWords()}`);
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
    async stop(graceMs = 15_000) {
      if (exitCode !== undefined) return exitCode;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      const code = await exited;
      clearTimeout(timer);
      return code;
    },
  };
}
