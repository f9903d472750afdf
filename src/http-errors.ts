import type { ErrorRequestHandler } from 'express';
import { Counter } from 'prom-client';
import { publicError } from './errors.js';
import type { Logger } from './logger.js';
import type { Metrics } from './observability/index.js';
import { requestIdOf } from './request/index.js';

// One counter per registry (several servers may share a process, as in the tests).
const refusals = new WeakMap<Metrics, Counter<'code'>>();

/** Requests refused before GraphQL ran, by error code (a fixed set). */
function observeRefusal(metrics: Metrics, code: string): void {
  let counter = refusals.get(metrics);
  if (!counter) {
    counter = new Counter({
      name: 'mnemograph_http_refused_requests_total',
      help: 'HTTP requests refused before GraphQL ran (admission, Host check, limits, unreadable bodies), by code',
      labelNames: ['code'] as const,
      registers: [metrics.registry],
    });
    refusals.set(metrics, counter);
  }
  counter.inc({ code });
}

/**
 * Errors raised before GraphQL runs (admission, Host check, token limit, the body parser's size
 * limit, malformed JSON), by publicError's rule, answered in GraphQL's shape,
 * `{ errors: [{ message, extensions: { code } }] }`, instead of Express's HTML. One log line and
 * one count each, as /mcp does for its refusals (GraphQL's own requests are logged by its plugins).
 */
export function httpErrorHandler(logger: Logger, metrics?: Metrics): ErrorRequestHandler {
  return (error, req, res, next) => {
    if (res.headersSent) return next(error);
    const body = publicError(error);
    const requestId = requestIdOf(res);
    if (body.status >= 500) logger.error({ err: error, requestId }, 'unexpected error in an HTTP handler');
    logger.info({ requestId, path: req.path, status: body.status, code: body.code }, 'http request refused');
    if (metrics) observeRefusal(metrics, body.code);
    if (body.retryAfterSeconds !== undefined) res.set('Retry-After', String(body.retryAfterSeconds));
    res
      .status(body.status)
      .json({ errors: [{ message: body.message, extensions: { code: body.code, ...(body.details ? { details: body.details } : {}) } }] });
  };
}
