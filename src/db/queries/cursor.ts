import { ValidationError } from '../../errors.js';

/**
 * Opaque page cursors: base64url of JSON `[kind, ...sortKey]` of the last row of a page. The
 * kind tag keeps a cursor of one listing from being replayed against another.
 */
export type CursorValue = string | number;

export function encodeCursor(kind: string, key: readonly CursorValue[]): string {
  return Buffer.from(JSON.stringify([kind, ...key]), 'utf8').toString('base64url');
}

/** The sort key of a cursor, checked against the expected kinds of its parts. */
export function decodeCursor(kind: string, value: string, shape: ReadonlyArray<'string' | 'number'>): CursorValue[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(value, 'base64url').toString('utf8'));
  } catch {
    parsed = null;
  }
  if (Array.isArray(parsed) && parsed[0] === kind && parsed.length === shape.length + 1) {
    const key = parsed.slice(1);
    if (key.every((part, i) => typeof part === shape[i] && (typeof part !== 'number' || Number.isFinite(part))))
      return key as CursorValue[];
  }
  throw new ValidationError('after is not a valid cursor for this list: pass the endCursor of a previous page', { field: 'after' });
}
