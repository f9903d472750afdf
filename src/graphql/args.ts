import { LimitExceededError, ValidationError } from '../errors.js';

/** `first` of a connection: 0 up to `max`. Over the cap is refused, not clamped, so a caller never mistakes a short page for the whole. */
export function pageSize(first: number | null | undefined, max: number, fallback = 20): number {
  const n = first ?? fallback;
  if (!Number.isInteger(n) || n < 0) throw new ValidationError('first must be a non-negative integer', { field: 'first' });
  if (n > max) throw new LimitExceededError(`first is ${n}; a page holds at most ${max} (MAX_PAGE_SIZE)`, { field: 'first', max });
  return n;
}

/** DateTime arguments arrive as Date (graphql-scalars); queries compare ISO strings in UTC. */
export function iso(value: unknown): string | null {
  if (value == null) return null;
  return value instanceof Date ? value.toISOString() : String(value);
}
