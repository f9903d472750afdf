import { describe, expect, it } from 'vitest';
import { tickDelayMs } from './backoff.js';
import { jobRetryDelayMs, JOB_RETRY_CAP_MS } from './queue/fail-job.js';
import { decodeJobCursor, encodeJobCursor } from './queue/cursor.js';
import { ValidationError } from '../errors.js';

describe('worker backoff', () => {
  it('polls at the configured interval while healthy', () => {
    expect(tickDelayMs(0, 2000)).toBe(2000);
  });

  it('doubles from 1 s per consecutive failure up to 30 s, plus < 500 ms jitter', () => {
    const noJitter = () => 0;
    expect([1, 2, 3, 4, 5, 6, 7].map((n) => tickDelayMs(n, 2000, noJitter))).toEqual([1000, 2000, 4000, 8000, 16000, 30000, 30000]);
    expect(tickDelayMs(1, 2000, () => 0.999)).toBe(1499);
  });

  it('spaces job retries by attempt, capped', () => {
    expect([1, 2, 3].map((a) => jobRetryDelayMs(a, 15_000))).toEqual([15_000, 30_000, 60_000]);
    expect(jobRetryDelayMs(30, 15_000)).toBe(JOB_RETRY_CAP_MS);
    expect(jobRetryDelayMs(3, 0)).toBe(0);
  });
});

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
