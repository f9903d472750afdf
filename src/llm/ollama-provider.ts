import { Ollama } from 'ollama';
import { LlmError, LlmHttpError, LlmTimeoutError, type GenerateOptions, type LlmProvider, type ProviderIdentity } from './provider.js';
import { safeEndpoint, urlCredentials, withoutSecrets } from './safe-endpoint.js';
import { recordUsage } from './usage.js';

const NS_PER_MS = 1e6;

export const AVAILABILITY_TIMEOUT_MS = 3 * 1000;

export interface OllamaProviderOptions {
  host: string;
  model: string;
}

/**
 * LlmProvider over the `ollama` client (POST /api/generate, stream: false).
 *
 * The client's own `abort()` only reaches streamed requests, so each call gets a client whose
 * `fetch` carries that call's AbortSignal: a timeout aborts the HTTP request itself (socket
 * closed, body dropped) and the timer is always cleared, so nothing outlives the call.
 */
export class OllamaProvider implements LlmProvider {
  readonly model: string;
  private readonly host: string;
  /** The host as messages name it: without user info, query or fragment. */
  private readonly endpoint: string;
  /** What the host's user info holds (`http://user:key@host`, before a proxy): in no message. */
  private readonly secrets: readonly string[];

  constructor(options: OllamaProviderOptions) {
    this.host = options.host;
    this.model = options.model;
    this.endpoint = safeEndpoint(options.host) ?? 'OLLAMA_HOST';
    this.secrets = urlCredentials(options.host);
  }

  async generate(prompt: string, options: GenerateOptions): Promise<string> {
    return this.withDeadline(options.timeoutMs, async (client) => {
      const response = await client.generate({
        model: this.model,
        prompt,
        stream: false,
        ...(options.format ? { format: options.format } : {}),
      });
      if (typeof response?.response !== 'string')
        throw new LlmError(`LLM server at ${this.endpoint} sent a generate response without a "response" field`);
      recordUsage({
        promptTokens: count(response.prompt_eval_count),
        evalTokens: count(response.eval_count),
        totalDurationMs: count(response.total_duration) / NS_PER_MS,
        loadDurationMs: count(response.load_duration) / NS_PER_MS,
        promptDurationMs: count(response.prompt_eval_duration) / NS_PER_MS,
        evalDurationMs: count(response.eval_duration) / NS_PER_MS,
      });
      return response.response;
    });
  }

  identity(): ProviderIdentity {
    return { provider: 'ollama', endpoint: safeEndpoint(this.host), keyConfigured: null };
  }

  async available(): Promise<boolean> {
    try {
      const listed = await this.withDeadline(AVAILABILITY_TIMEOUT_MS, (client) => client.list());
      return listed.models.some((m) => m.name === this.model || m.model === this.model || m.name === `${this.model}:latest`);
    } catch {
      return false;
    }
  }

  private async withDeadline<T>(timeoutMs: number, call: (client: Ollama) => Promise<T>): Promise<T> {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), timeoutMs);
    const client = new Ollama({ host: this.host, fetch: (input, init) => fetch(input, { ...init, signal: controller.signal }) });
    try {
      return await call(client);
    } catch (error) {
      if (controller.signal.aborted) throw new LlmTimeoutError(timeoutMs, this.model);
      throw this.describe(error);
    } finally {
      clearTimeout(timer);
    }
  }

  private describe(error: unknown): LlmError {
    if (error instanceof LlmError) return error;
    const status = (error as { status_code?: unknown }).status_code;
    if (typeof status === 'number')
      return new LlmHttpError(status, withoutSecrets((error as Error).message ?? '', this.secrets), this.model);
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    const reason = cause?.code ?? cause?.message ?? (error as Error).message ?? String(error);
    // The client's error is kept as the cause (its stack, for the logs) unless it quotes a URL with credentials.
    return new LlmError(`LLM server unreachable at ${this.endpoint}: ${withoutSecrets(reason, this.secrets)}`, {
      cause: this.secrets.length > 0 ? undefined : error,
    });
  }
}

/** Ollama omits counters it did not measure (e.g. a cached prompt has no prompt_eval_count). */
function count(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : 0;
}
