import { LlmError, LlmHttpError, LlmTimeoutError } from './provider.js';
import { withoutSecrets } from './safe-endpoint.js';

/** Backoff between attempts when the server names no Retry-After: base × 2^attempt, full jitter, capped. */
export const RETRY_BASE_MS = 500;
export const RETRY_CAP_MS = 8_000;

/** What the official SDKs (both generated the same way) throw for an HTTP answer they refuse. */
interface SdkHttpError {
  status: number;
  headers?: { get(name: string): string | null } | Record<string, string> | null;
  message?: string;
  error?: unknown;
}

export interface HostedCall {
  /** Provider name and model, for messages: "openai gpt-4o-mini". */
  model: string;
  timeoutMs: number;
  /** Removed from every message this module builds, whatever the server echoed: the key, and what the base URL's user info holds. */
  secrets: readonly string[];
  /** Tests only: the wait before a retry (a real clock otherwise). */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
}

/**
 * One model call to a hosted API through its SDK (its own retries off), inside one deadline:
 * 429 and 5xx (and a refused connection) are tried again after the server's Retry-After, else an
 * exponential backoff with jitter, as long as the wait ends before the deadline; anything else
 * (401, 403, 400...) fails at once. The deadline aborts the request in flight.
 */
export async function hostedCall<T>(call: HostedCall, attempt: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  const deadline = Date.now() + call.timeoutMs;
  const timer = setTimeout(() => controller.abort(), call.timeoutMs);
  const sleep = call.sleep ?? abortableSleep;
  try {
    for (let tries = 0; ; tries += 1) {
      let failure: LlmError;
      let retryAfterMs: number | null = null;
      try {
        return await attempt(controller.signal);
      } catch (error) {
        if (controller.signal.aborted) throw new LlmTimeoutError(call.timeoutMs, call.model);
        failure = describe(error, call);
        retryAfterMs = isHttpError(error) ? retryAfter(error.headers) : null;
      }
      if (!failure.retriable) throw failure;
      const waitMs = retryAfterMs ?? Math.random() * Math.min(RETRY_CAP_MS, RETRY_BASE_MS * 2 ** tries);
      if (Date.now() + waitMs >= deadline) throw failure;
      await sleep(waitMs, controller.signal);
      if (controller.signal.aborted) throw new LlmTimeoutError(call.timeoutMs, call.model);
    }
  } finally {
    clearTimeout(timer);
  }
}

/** The SDK's error as this module's typed one, with every secret taken out of its message. */
function describe(error: unknown, call: HostedCall): LlmError {
  if (error instanceof LlmError) return error;
  const scrub = (text: string) => withoutSecrets(text, call.secrets);
  if (isHttpError(error)) {
    const body = error.error === undefined ? (error.message ?? '') : JSON.stringify(error.error);
    return new LlmHttpError(error.status, scrub(body), call.model);
  }
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  const reason = cause?.code ?? cause?.message ?? (error as Error)?.message ?? String(error);
  return new LlmError(`LLM server unreachable (model ${call.model}): ${scrub(reason)}`);
}

function isHttpError(error: unknown): error is SdkHttpError {
  return typeof (error as { status?: unknown })?.status === 'number';
}

/** `retry-after-ms` (OpenAI), else `retry-after` in seconds or as an HTTP date; null when absent or unreadable. */
export function retryAfter(headers: SdkHttpError['headers']): number | null {
  if (!headers) return null;
  const get = (name: string) =>
    typeof (headers as { get?: unknown }).get === 'function'
      ? (headers as { get(name: string): string | null }).get(name)
      : ((headers as Record<string, string>)[name] ?? null);
  const ms = Number(get('retry-after-ms'));
  if (get('retry-after-ms') !== null && Number.isFinite(ms) && ms >= 0) return ms;
  const value = get('retry-after');
  if (value === null) return null;
  const seconds = Number(value);
  if (value.trim() !== '' && Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, at - Date.now());
}

function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
  });
}
