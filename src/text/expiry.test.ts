import { describe, expect, it } from 'vitest';
import { classifyTemporal } from '../write/temporal.js';
import { parseExpiry } from './expiry.js';

const at = new Date('2026-11-24T10:00:00Z'); // a Tuesday

describe('parseExpiry: relative and absolute time phrases against when the memory happened', () => {
  it.each([
    ['Meeting at 3pm tomorrow', '2026-11-25T15:00:00.000Z'],
    ['Standup moved, at 3pm', '2026-11-24T15:00:00.000Z'],
    ['I am out tomorrow', '2026-11-25T23:59:59.000Z'],
    ['On-call rotation through Friday', '2026-11-27T23:59:59.000Z'],
    ['The flag stays on until 2026-12-01', '2026-12-01T23:59:59.000Z'],
    ['Alice covers support until next Monday', '2026-11-30T23:59:59.000Z'],
    ['Freeze between March 3 and March 5', '2027-03-05T23:59:59.000Z'],
  ])('%s → %s', (text, expected) => {
    expect(parseExpiry(text, at)).toBe(expected);
  });

  it('reads the phrase against the reference time, not the clock', () => {
    expect(parseExpiry('Meeting at 3pm tomorrow', new Date('2025-01-10T08:00:00Z'))).toBe('2025-01-11T15:00:00.000Z');
  });

  it('names no end for durable facts, "for now", or when the event happened ("today")', () => {
    expect(parseExpiry('Postgres is the primary database', at)).toBeNull();
    expect(parseExpiry('For now we use Redis', at)).toBeNull();
    expect(parseExpiry('I went to the support group today', at)).toBeNull();
  });

  it("is what the write path stores as validUntil (the memory's occurredAt as reference)", () => {
    expect(classifyTemporal('Meeting at 3pm tomorrow', '2026-11-24T10:00:00Z')).toEqual({
      temporal: 'temporal',
      validUntil: '2026-11-25T15:00:00.000Z',
    });
    expect(classifyTemporal('On-call rotation through Friday', '2026-11-24T10:00:00Z').validUntil).toBe('2026-11-27T23:59:59.000Z');
    // An explicit ISO date still wins.
    expect(classifyTemporal('Feature flag stays on until 2026-12-01', '2026-11-24T10:00:00Z').validUntil).toBe('2026-12-01T23:59:59.000Z');
  });

  it('reads at most a few short windows of a long hostile text', () => {
    const started = performance.now();
    expect(parseExpiry('a 1 at by until '.repeat(60_000), at)).toBeNull();
    expect(performance.now() - started).toBeLessThan(500);
  });
});
