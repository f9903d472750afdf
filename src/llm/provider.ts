import { MnemographError } from '../errors.js';
import { redactStored } from '../redaction/index.js';

/** Error bodies are redacted whole (up to this many characters) before being cut for the message. */
const MAX_ERROR_BODY_CHARS = 16_384;

export interface GenerateOptions {
  /** Hard deadline for the whole call; the request is aborted when it passes. */
  timeoutMs: number;
  /** Constrain the output: any JSON, or JSON matching this schema (Ollama structured outputs). */
  format?: 'json' | Record<string, unknown>;
}

/**
 * The one seam between the deep path and a language model (any provider behind it):
 * no streaming, no chat history, no tools.
 */
export interface LlmProvider {
  readonly model: string;
  generate(prompt: string, options: GenerateOptions): Promise<string>;
  /** Whether a generate call could succeed now (server reachable and the model present). */
  available(): Promise<boolean>;
  /** What health reports of it (provider-report.ts); never a key. */
  identity?(): ProviderIdentity;
}

/** Which provider this is and where it answers from, for health: never the key itself. */
export interface ProviderIdentity {
  /** ollama, openai, anthropic, claude-code. */
  provider: string;
  /** The server's URL without credentials or query, or the executable run. */
  endpoint: string | null;
  /** Whether a key was configured; null for a provider that takes none. */
  keyConfigured: boolean | null;
}

/** A failed model call. Transport failures are retriable: the job is tried again later. */
export class LlmError extends MnemographError {
  constructor(message: string, options: { cause?: unknown; retriable?: boolean; details?: Record<string, unknown> } = {}) {
    super('UNAVAILABLE', message, { retriable: options.retriable ?? true, cause: options.cause, details: options.details });
  }
}

export class LlmTimeoutError extends LlmError {
  constructor(
    readonly timeoutMs: number,
    model: string,
  ) {
    super(`LLM call timed out after ${timeoutMs} ms (model ${model})`, { details: { timeoutMs, model } });
  }
}

/**
 * The server answered with an HTTP error; the message carries the status and the start of the body,
 * redacted before it is cut (a cut secret would keep its first characters).
 * Server trouble (5xx, 429) and a model not pulled yet (404) may pass; any other 4xx means the
 * request itself is wrong and will be refused again.
 */
export class LlmHttpError extends LlmError {
  constructor(
    readonly status: number,
    body: string,
    model: string,
  ) {
    super(`LLM server returned HTTP ${status} for model ${model}: ${redactStored(body.slice(0, MAX_ERROR_BODY_CHARS)).slice(0, 200)}`, {
      details: { status, model, reason: httpReason(status) },
      retriable: status >= 500 || status === 429 || status === 404,
    });
  }
}

/** What a refused call's status means, for the job's error and the logs (the status alone says it to few). */
function httpReason(status: number): string {
  if (status === 401) return 'unauthorized';
  if (status === 403) return 'forbidden';
  if (status === 429) return 'rate_limited';
  if (status === 404) return 'model_not_found';
  if (status >= 500) return 'server_error';
  return 'bad_request';
}

/** The output was not the JSON we asked for. Not retriable: the caller records a warning. */
export class LlmParseError extends MnemographError {
  constructor(
    message: string,
    readonly excerpt: string,
  ) {
    super('INTERNAL', message, { details: { excerpt }, retriable: false });
  }
}

export function isLlmError(error: unknown): error is LlmError {
  return error instanceof LlmError;
}
