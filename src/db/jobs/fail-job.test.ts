import { describe, expect, it } from 'vitest';
import { jobRetryDelayMs, JOB_RETRY_CAP_MS } from './fail-job.js';

describe('job retry backoff', () => {
  it('spaces job retries by attempt, capped', () => {
    expect([1, 2, 3].map((a) => jobRetryDelayMs(a, 15_000))).toEqual([15_000, 30_000, 60_000]);
    expect(jobRetryDelayMs(30, 15_000)).toBe(JOB_RETRY_CAP_MS);
    expect(jobRetryDelayMs(3, 0)).toBe(0);
  });
});
