import { isMnemographError, publicError } from '../errors.js';
import type { Caller } from './caller.js';

/** One item's failure inside a batch answer, as the client sees it. */
export interface ItemError {
  code: string;
  message: string;
}

/** An item's error by publicError's rule: its code and message; internals logged under the request id, never answered. */
export function itemError(caller: Caller, error: unknown, where: { operation: string; index: number }): ItemError {
  const p = publicError(error);
  if (p.internal) {
    // The batch write wraps an unexpected failure as INTERNAL with the original as its cause.
    const err = isMnemographError(error) && error.code === 'INTERNAL' && error.cause ? error.cause : error;
    caller.logger.error({ err, ...where }, 'unexpected error in a batch item');
  }
  return { code: p.code, message: p.message };
}
