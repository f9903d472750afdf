import type { ErrorRequestHandler } from 'express';
import { isMnemographError, type ErrorCode, type MnemographError } from './errors.js';
import type { Logger } from './logger.js';
import { requestIdOf, traceOf } from './observability/index.js';

interface HttpErrorBody {
  status: number;
  /** Seconds, for HTTP 429. */
  retryAfter?: number;
  code: string;
  message: string;
  details?: Record<string, unknown>;
}

/** body-parser's errors carry `type` and `status`; see its README. */
interface BodyParserError {
  type?: unknown;
  status?: unknown;
  expose?: unknown;
  limit?: unknown;
  length?: unknown;
  message?: unknown;
}

const STATUS_OF: Partial<Record<ErrorCode, number>> = { UNAUTHENTICATED: 401, FORBIDDEN: 403, RATE_LIMITED: 429, UNAVAILABLE: 503 };

/** A refusal that says when to come back is answered 429 with Retry-After, whatever its code. */
function retryAfterMsOf(error: MnemographError): number | undefined {
  const value = (error as { retryAfterMs?: unknown }).retryAfterMs;
  return typeof value === 'number' ? value : undefined;
}

function describeOwn(error: MnemographError): HttpErrorBody {
  const retryAfterMs = retryAfterMsOf(error);
  if (retryAfterMs !== undefined) {
    return {
      status: 429,
      retryAfter: Math.max(1, Math.ceil(retryAfterMs / 1000)),
      code: error.code,
      message: error.message,
      ...(error.details ? { details: error.details } : {}),
    };
  }
  const status = STATUS_OF[error.code] ?? (error.code === 'INTERNAL' ? 500 : 400);
  if (status >= 500 && error.code !== 'UNAVAILABLE') return { status, code: 'INTERNAL', message: 'internal error' };
  return { status, code: error.code, message: error.message, ...(error.details ? { details: error.details } : {}) };
}

function describe(error: unknown): HttpErrorBody {
  if (isMnemographError(error)) return describeOwn(error);
  const e = (error ?? {}) as BodyParserError;
  if (e.type === 'entity.too.large') {
    return {
      status: 413,
      code: 'LIMIT_EXCEEDED',
      message: `request body exceeds the maximum of ${String(e.limit)} bytes (MAX_REQUEST_BYTES)`,
      details: { maxBytes: e.limit, ...(typeof e.length === 'number' ? { bytes: e.length } : {}) },
    };
  }
  if (e.type === 'entity.parse.failed') return { status: 400, code: 'BAD_REQUEST', message: 'request body is not valid JSON' };
  if (typeof e.status === 'number' && e.status >= 400 && e.status < 500 && e.expose === true) {
    return { status: e.status, code: 'BAD_REQUEST', message: String(e.message) };
  }
  return { status: 500, code: 'INTERNAL', message: 'internal error' };
}

/**
 * Errors raised before GraphQL runs (admission, Host check, token limit, the body parser's size
 * limit, malformed JSON) answered in
 * GraphQL's shape, `{ errors: [{ message, extensions: { code } }] }`, instead of Express's HTML.
 */
export function httpErrorHandler(logger: Logger): ErrorRequestHandler {
  return (error, _req, res, next) => {
    if (res.headersSent) return next(error);
    const body = describe(error);
    const trace = traceOf(res);
    if (trace) trace.errorCodes = [body.code];
    if (body.retryAfter !== undefined) res.set('Retry-After', String(body.retryAfter));
    if (body.status >= 500) logger.error({ err: error, requestId: requestIdOf(res) }, 'unexpected error in an HTTP handler');
    res
      .status(body.status)
      .json({ errors: [{ message: body.message, extensions: { code: body.code, ...(body.details ? { details: body.details } : {}) } }] });
  };
}
