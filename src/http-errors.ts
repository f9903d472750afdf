import type { ErrorRequestHandler } from 'express';
import type { Logger } from './logger.js';
import { requestIdOf, traceOf } from './observability/index.js';

interface HttpErrorBody {
  status: number;
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

function describe(error: unknown): HttpErrorBody {
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
  return { status: 500, code: 'INTERNAL_SERVER_ERROR', message: 'internal error' };
}

/**
 * Errors raised before GraphQL runs (the body parser's size limit, malformed JSON) answered in
 * GraphQL's shape, `{ errors: [{ message, extensions: { code } }] }`, instead of Express's HTML.
 */
export function httpErrorHandler(logger: Logger): ErrorRequestHandler {
  return (error, _req, res, next) => {
    if (res.headersSent) return next(error);
    const body = describe(error);
    const trace = traceOf(res);
    if (trace) trace.errorCodes = [body.code];
    if (body.status >= 500) logger.error({ err: error, requestId: requestIdOf(res) }, 'unexpected error in an HTTP handler');
    res.status(body.status).json({ errors: [{ message: body.message, extensions: { code: body.code, ...(body.details ? { details: body.details } : {}) } }] });
  };
}
