import type { RequestHandler } from 'express';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import type { Principal, Services } from '../api/index.js';
import { LimitExceededError, RateLimitedError } from '../errors.js';
import { headerValue, setPrincipal } from '../request/index.js';

export interface AdmissionLimits {
  /** Requests per key per minute; 0 = unlimited. */
  ratePerMinute: number;
  /** Requests per key in flight at once; 0 = unlimited. */
  maxConcurrent: number;
}

const RATE_WINDOW_SECONDS = 60;
/** A request slot frees within a request's time; a second is a fair first retry. */
const CONCURRENCY_RETRY_AFTER_MS = 1000;

/** LIMIT_EXCEEDED answered like a rate limit: HTTP 429 with Retry-After. */
class TooManyInFlightError extends LimitExceededError {
  readonly retryAfterMs = CONCURRENCY_RETRY_AFTER_MS;
}

/**
 * Authenticates the caller once, then applies its key's rate (rate-limiter-flexible) and
 * concurrency limits before the body is even read. Refusals go to the HTTP error handler.
 */
export function admission(access: Services['access'], limits: AdmissionLimits): RequestHandler {
  const rate =
    limits.ratePerMinute > 0 ? new RateLimiterMemory({ points: limits.ratePerMinute, duration: RATE_WINDOW_SECONDS }) : undefined;
  const inFlight = new Map<string, number>();

  return async (req, res, next) => {
    let principal: Principal;
    try {
      principal = access.authenticate(req.headers.authorization, headerValue(req.headers['x-api-key']));
    } catch (error) {
      return next(error);
    }
    setPrincipal(res, principal);
    const key = principal.name;

    if (rate) {
      try {
        await rate.consume(key);
      } catch (refusal) {
        if (!(refusal instanceof RateLimiterRes)) return next(refusal);
        return next(
          new RateLimitedError(
            `more than ${limits.ratePerMinute} requests per minute for this API key (RATE_LIMIT_PER_MINUTE)`,
            refusal.msBeforeNext,
          ),
        );
      }
    }

    if (limits.maxConcurrent > 0) {
      const current = inFlight.get(key) ?? 0;
      if (current >= limits.maxConcurrent) {
        return next(
          new TooManyInFlightError(
            `more than ${limits.maxConcurrent} requests of this API key in flight (MAX_CONCURRENT_REQUESTS_PER_KEY)`,
            {
              maxConcurrent: limits.maxConcurrent,
            },
          ),
        );
      }
      inFlight.set(key, current + 1);
      // 'close' fires once the response is sent or the client went away, whichever comes first.
      res.once('close', () => {
        const left = (inFlight.get(key) ?? 1) - 1;
        if (left > 0) inFlight.set(key, left);
        else inFlight.delete(key);
      });
    }
    next();
  };
}
