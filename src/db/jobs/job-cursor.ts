import { ValidationError } from '../../errors.js';

/** Opaque page cursor: base64url of the sort key (createdAt, id) of the last row. */
export interface JobCursor {
  createdAt: string;
  id: string;
}

export function encodeJobCursor(cursor: JobCursor): string {
  return Buffer.from(JSON.stringify([cursor.createdAt, cursor.id]), 'utf8').toString('base64url');
}

export function decodeJobCursor(value: string): JobCursor {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(value, 'base64url').toString('utf8'));
    if (Array.isArray(parsed) && parsed.length === 2 && typeof parsed[0] === 'string' && typeof parsed[1] === 'string') {
      return { createdAt: parsed[0], id: parsed[1] };
    }
  } catch {
    // reported below
  }
  throw new ValidationError('after is not a valid cursor: pass the endCursor of a previous page', { field: 'after' });
}
