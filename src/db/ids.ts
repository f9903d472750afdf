import { createHash } from 'node:crypto';

/**
 * A UUID-shaped id that is the same every time for the same (base, key): for records a
 * transaction discovers while it runs (the facts a forget reaches), whose ids therefore cannot
 * all be made before it, yet must be the same when the transaction is run again. `base` is a
 * random UUID made before the transaction.
 */
export function derivedId(base: string, key: string): string {
  const h = createHash('sha256').update(base).update('\u0000').update(key).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-8${h.slice(13, 16)}-${((parseInt(h[16]!, 16) & 0x3) | 0x8).toString(16)}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}
