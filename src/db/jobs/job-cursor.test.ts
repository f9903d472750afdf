import { describe, expect, it } from 'vitest';
import { decodeJobCursor, encodeJobCursor } from './job-cursor.js';
import { ValidationError } from '../../errors.js';

describe('job cursors', () => {
  it('round-trip and stay opaque', () => {
    const cursor = encodeJobCursor({ createdAt: '2025-01-01T00:00:00.000Z', id: 'abc' });
    expect(cursor).not.toContain('2025');
    expect(decodeJobCursor(cursor)).toEqual({ createdAt: '2025-01-01T00:00:00.000Z', id: 'abc' });
  });

  it('reject anything else with a ValidationError', () => {
    for (const bad of ['', 'not-base64!', Buffer.from('{"a":1}').toString('base64url'), Buffer.from('[1,2]').toString('base64url')]) {
      expect(() => decodeJobCursor(bad)).toThrow(ValidationError);
    }
  });
});
