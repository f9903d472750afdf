import { describe, expect, it } from 'vitest';
import { tickDelayMs } from './backoff.js';

describe('worker backoff', () => {
  it('polls at the configured interval while healthy', () => {
    expect(tickDelayMs(0, 2000)).toBe(2000);
  });

  it('doubles from 1 s per consecutive failure up to 30 s, plus < 500 ms jitter', () => {
    const noJitter = () => 0;
    expect([1, 2, 3, 4, 5, 6, 7].map((n) => tickDelayMs(n, 2000, noJitter))).toEqual([1000, 2000, 4000, 8000, 16000, 30000, 30000]);
    expect(tickDelayMs(1, 2000, () => 0.999)).toBe(1499);
  });
});
