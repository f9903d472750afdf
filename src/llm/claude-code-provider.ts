import { spawn } from 'node:child_process';
import { redactStored } from '../redaction/index.js';
import { LlmError, LlmTimeoutError, type GenerateOptions, type LlmProvider, type ProviderIdentity } from './provider.js';
import { recordUsage } from './usage.js';

export interface ClaudeCodeProviderOptions {
  /** The `claude` executable (LLM_CLAUDE_CODE_BIN); `claude` on PATH when absent. */
  bin?: string | null;
  /** `--model` (an alias such as haiku or a full name). */
  model: string;
  /** Calls running at once; the rest wait their turn (inside their own deadline). */
  concurrency?: number;
}

const DEFAULT_CONCURRENCY = 2;
const KILL_GRACE_MS = 2_000;
const HELP_TIMEOUT_MS = 5_000;
const MAX_OUTPUT_CHARS = 4 * 1024 * 1024;

interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * LlmProvider over the Claude Code CLI a user already runs: `claude -p --output-format json`, the
 * prompt on stdin, the JSON Schema through `--json-schema` when the installed version lists that
 * option (its `structured_output` is the answer), else in the prompt; the deep path validates the
 * answer either way. Each call is one process, killed at the deadline, at most `concurrency` at once.
 */
export class ClaudeCodeProvider implements LlmProvider {
  readonly model: string;
  private readonly bin: string;
  private readonly concurrency: number;
  private running = 0;
  private readonly waiting: Array<() => void> = [];
  private schemaOption: Promise<boolean> | null = null;

  constructor(options: ClaudeCodeProviderOptions) {
    this.model = options.model;
    this.bin = options.bin || 'claude';
    this.concurrency = Math.max(1, options.concurrency ?? DEFAULT_CONCURRENCY);
  }

  async generate(prompt: string, options: GenerateOptions): Promise<string> {
    const deadline = Date.now() + options.timeoutMs;
    const schema = typeof options.format === 'object' ? JSON.stringify(options.format) : null;
    const withSchemaOption = schema !== null && (await this.knowsSchemaOption());
    const args = ['-p', '--output-format', 'json', '--model', this.model, ...(withSchemaOption ? ['--json-schema', schema!] : [])];
    const input =
      options.format === undefined || withSchemaOption
        ? prompt
        : `${prompt}\n\nAnswer with one JSON object and nothing else${schema ? `, matching this JSON Schema: ${schema}` : ''}.`;
    const started = Date.now();
    const result = await this.limited(deadline, options.timeoutMs, () => this.run(args, input, deadline - Date.now(), options.timeoutMs));
    if (result.code !== 0 && result.stdout.trim() === '')
      throw new LlmError(`claude exited with ${String(result.code)} (model ${this.model}): ${excerpt(result.stderr)}`);
    let envelope: {
      is_error?: boolean;
      result?: unknown;
      structured_output?: unknown;
      usage?: { input_tokens?: number; output_tokens?: number };
    };
    try {
      envelope = JSON.parse(result.stdout) as typeof envelope;
    } catch {
      throw new LlmError(`claude printed no JSON result (model ${this.model})`, { retriable: false });
    }
    recordUsage({
      promptTokens: envelope.usage?.input_tokens ?? 0,
      evalTokens: envelope.usage?.output_tokens ?? 0,
      totalDurationMs: Date.now() - started,
      loadDurationMs: 0,
      promptDurationMs: 0,
      evalDurationMs: 0,
    });
    if (envelope.is_error) throw new LlmError(`claude reported an error (model ${this.model}): ${excerpt(String(envelope.result))}`);
    if (envelope.structured_output !== undefined && envelope.structured_output !== null) return JSON.stringify(envelope.structured_output);
    if (typeof envelope.result !== 'string') throw new LlmError(`claude's result has no text (model ${this.model})`, { retriable: false });
    return envelope.result;
  }

  identity(): ProviderIdentity {
    return { provider: 'claude-code', endpoint: this.bin, keyConfigured: null };
  }

  async available(): Promise<boolean> {
    try {
      return (await this.run(['--version'], '', HELP_TIMEOUT_MS, HELP_TIMEOUT_MS)).code === 0;
    } catch {
      return false;
    }
  }

  /** Whether `claude --help` lists --json-schema (asked once). */
  private knowsSchemaOption(): Promise<boolean> {
    this.schemaOption ??= this.run(['--help'], '', HELP_TIMEOUT_MS, HELP_TIMEOUT_MS)
      .then((r) => r.stdout.includes('--json-schema'))
      .catch(() => false);
    return this.schemaOption;
  }

  private async limited<T>(deadline: number, timeoutMs: number, work: () => Promise<T>): Promise<T> {
    if (this.running >= this.concurrency) {
      const turn = new Promise<void>((resolve) => this.waiting.push(resolve));
      const late = await Promise.race([turn.then(() => false), sleep(deadline - Date.now()).then(() => true)]);
      if (late) {
        // Give the turn back when it comes: this call no longer wants it.
        void turn.then(() => this.release());
        throw new LlmTimeoutError(timeoutMs, this.model);
      }
    }
    this.running += 1;
    try {
      return await work();
    } finally {
      this.release();
    }
  }

  private release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.running -= 1;
  }

  private run(args: string[], input: string, budgetMs: number, timeoutMs: number): Promise<RunResult> {
    return new Promise((resolve, reject) => {
      if (budgetMs <= 0) return reject(new LlmTimeoutError(timeoutMs, this.model));
      const child = spawn(this.bin, args, { stdio: ['pipe', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      let timedOut = false;
      const timer = setTimeout(() => {
        timedOut = true;
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), KILL_GRACE_MS).unref();
      }, budgetMs);
      child.stdout.on('data', (chunk: Buffer) => {
        if (stdout.length < MAX_OUTPUT_CHARS) stdout += chunk.toString('utf8');
      });
      child.stderr.on('data', (chunk: Buffer) => {
        if (stderr.length < MAX_OUTPUT_CHARS) stderr += chunk.toString('utf8');
      });
      child.on('error', (error) => {
        clearTimeout(timer);
        reject(new LlmError(`claude could not be started (${this.bin}): ${(error as NodeJS.ErrnoException).code ?? error.message}`));
      });
      child.on('close', (code) => {
        clearTimeout(timer);
        if (timedOut) reject(new LlmTimeoutError(timeoutMs, this.model));
        else resolve({ code, stdout, stderr });
      });
      child.stdin.on('error', () => undefined);
      child.stdin.end(input);
    });
  }
}

/** The start of what claude said, redacted before it is cut (a cut secret keeps its first characters): claude runs with the service's environment, its keys included. */
function excerpt(text: string): string {
  return redactStored(text).slice(0, 200);
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)).unref());
}
