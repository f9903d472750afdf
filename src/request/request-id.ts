import { randomUUID } from 'node:crypto';
import type { RequestHandler, Response } from 'express';

export const REQUEST_ID_HEADER = 'x-request-id';
/** What a caller's own request id may look like; anything else is replaced, never echoed. */
const ACCEPTABLE_REQUEST_ID = /^[A-Za-z0-9._:/-]{1,128}$/;

/** Takes the caller's `x-request-id` (or makes one), returns it in the response header. */
export function requestIdMiddleware(): RequestHandler {
  return (req, res, next) => {
    const incoming = req.headers[REQUEST_ID_HEADER];
    const candidate = Array.isArray(incoming) ? incoming[0] : incoming;
    const requestId = candidate && ACCEPTABLE_REQUEST_ID.test(candidate) ? candidate : randomUUID();
    res.locals.requestId = requestId;
    res.setHeader(REQUEST_ID_HEADER, requestId);
    next();
  };
}

export function requestIdOf(res: Response): string {
  return typeof res.locals.requestId === 'string' ? res.locals.requestId : randomUUID();
}
