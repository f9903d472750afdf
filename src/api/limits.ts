import { LimitExceededError, ValidationError } from '../errors.js';

/** The longest reason a forget may record. */
export const MAX_REASON_CHARS = 1_000;
/** The longest entity name search. */
export const MAX_SEARCH_CHARS = 200;

/**
 * How many items a page or list call asks for: 0 up to `max`. Over the cap is refused, not clamped,
 * so a caller never mistakes a short page for the whole.
 */
export function pageSize(first: number | null | undefined, max: number, fallback = 20, field = 'first'): number {
  const n = first ?? fallback;
  if (!Number.isInteger(n) || n < 0) throw new ValidationError(`${field} must be a non-negative integer`, { field });
  if (n > max) throw new LimitExceededError(`${field} is ${n}; a page holds at most ${max} (MAX_PAGE_SIZE)`, { field, max });
  return n;
}

/** A free-text argument no longer than `max` characters. */
export function checkLength(value: string | null | undefined, max: number, field: string): void {
  if (value && value.length > max) throw new ValidationError(`${field} is longer than ${max} characters`, { field });
}
