import type { ErrorRequestHandler } from 'express';
import { publicError } from './errors.js';
import type { Logger } from './logger.js';
import { requestIdOf, traceOf } from './observability/index.js';

/**
 * Errors raised before GraphQL runs (admission, Host check, token limit, the body parser's size
 * limit, malformed JSON), by publicError's rule, answered in
 * GraphQL's shape, `{ errors: [{ message, extensions: { code } }] }`, instead of Express's HTML.
 */
export function httpErrorHandler(logger: Logger): ErrorRequestHandler {
  return (error, _req, res, next) => {
    if (res.headersSent) return next(error);
    const body = publicError(error);
    const trace = traceOf(res);
    if (trace) trace.errorCodes = [body.code];
    if (body.retryAfterSeconds !== undefined) res.set('Retry-After', String(body.retryAfterSeconds));
    if (body.status >= 500) logger.error({ err: error, requestId: requestIdOf(res) }, 'unexpected error in an HTTP handler');
    res
      .status(body.status)
      .json({ errors: [{ message: body.message, extensions: { code: body.code, ...(body.details ? { details: body.details } : {}) } }] });
  };
}
