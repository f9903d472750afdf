import { describe, expect, it } from 'vitest';
import {
  ForbiddenError,
  INTERNAL_MESSAGE,
  LimitExceededError,
  MnemographError,
  publicError,
  RateLimitedError,
  TimeoutError,
  UnauthenticatedError,
  UnavailableError,
  ValidationError,
} from './errors.js';

describe('publicError: what every transport tells a client', () => {
  it('keeps the code, message and details of a coded error, with its HTTP status', () => {
    expect(publicError(new ValidationError('bad', { field: 'x' }))).toEqual({
      code: 'BAD_USER_INPUT',
      message: 'bad',
      details: { field: 'x' },
      status: 400,
      internal: false,
    });
    expect(publicError(new UnauthenticatedError()).status).toBe(401);
    expect(publicError(new ForbiddenError('no')).status).toBe(403);
    expect(publicError(new UnavailableError('down')).status).toBe(503);
    expect(publicError(new TimeoutError('slow'))).toMatchObject({ code: 'TIMEOUT', status: 504, internal: false });
  });

  it('answers a refusal that says when to come back 429 with Retry-After, whatever its code', () => {
    expect(publicError(new RateLimitedError('slow down', 1_200))).toMatchObject({
      code: 'RATE_LIMITED',
      status: 429,
      retryAfterSeconds: 2,
    });
    const inFlight = Object.assign(new LimitExceededError('too many'), { retryAfterMs: 10 });
    expect(publicError(inFlight)).toMatchObject({ code: 'LIMIT_EXCEEDED', status: 429, retryAfterSeconds: 1 });
  });

  it('hides internals: INTERNAL, CONFIG_INVALID, MIGRATION_FAILED and anything uncoded', () => {
    const hidden = { code: 'INTERNAL', message: INTERNAL_MESSAGE, status: 500, internal: true };
    expect(publicError(new MnemographError('INTERNAL', 'stack at /srv'))).toEqual(hidden);
    expect(publicError(new MnemographError('CONFIG_INVALID', 'NEO4J_PASSWORD is required', { details: { a: 1 } }))).toEqual(hidden);
    expect(publicError(new MnemographError('MIGRATION_FAILED', 'migration 007 failed'))).toEqual(hidden);
    expect(publicError(new Error('Regular expression too large'))).toEqual(hidden);
    expect(publicError(undefined)).toEqual(hidden);
  });

  it("maps body-parser's refusals", () => {
    expect(publicError({ type: 'entity.too.large', limit: 100, length: 200 })).toEqual({
      code: 'LIMIT_EXCEEDED',
      message: 'request body exceeds the maximum of 100 bytes (MAX_REQUEST_BYTES)',
      details: { maxBytes: 100, bytes: 200 },
      status: 413,
      internal: false,
    });
    expect(publicError({ type: 'entity.parse.failed', status: 400 })).toMatchObject({ code: 'BAD_REQUEST', status: 400 });
    expect(publicError({ status: 415, expose: true, message: 'unsupported charset' })).toMatchObject({
      code: 'BAD_REQUEST',
      status: 415,
      message: 'unsupported charset',
    });
  });
});
