import { describe, expect, it } from 'vitest';
import { ageInDays, recencyFactor } from './recency.js';

const now = new Date('2024-06-30T00:00:00Z');
const settings = { halfLifeDays: 30, weight: 0.4 };
const daysAgo = (days: number) => new Date(now.getTime() - days * 86_400_000).toISOString();

describe('recencyFactor', () => {
  it('is 1 for a memory from now and loses half the weight per half-life', () => {
    expect(recencyFactor({ occurredAt: daysAgo(0), createdAt: daysAgo(0) }, now, settings)).toBe(1);
    expect(recencyFactor({ occurredAt: daysAgo(30), createdAt: daysAgo(0) }, now, settings)).toBeCloseTo(1 - 0.4 + 0.4 * 0.5);
    expect(recencyFactor({ occurredAt: daysAgo(60), createdAt: daysAgo(0) }, now, settings)).toBeCloseTo(1 - 0.4 + 0.4 * 0.25);
    expect(recencyFactor({ occurredAt: daysAgo(3650), createdAt: daysAgo(0) }, now, settings)).toBeCloseTo(0.6, 5);
  });

  it('uses event time over record time, and record time when there is no event time', () => {
    const old = recencyFactor({ occurredAt: daysAgo(90), createdAt: daysAgo(1) }, now, settings);
    const fallback = recencyFactor({ occurredAt: null, createdAt: daysAgo(90) }, now, settings);
    expect(old).toBeCloseTo(fallback);
    expect(old).toBeLessThan(recencyFactor({ occurredAt: null, createdAt: daysAgo(1) }, now, settings));
  });

  it('does not penalize future or unparsable times', () => {
    expect(recencyFactor({ occurredAt: '2030-01-01T00:00:00Z', createdAt: daysAgo(0) }, now, settings)).toBe(1);
    expect(ageInDays({ occurredAt: 'yesterday-ish', createdAt: daysAgo(10) }, now)).toBeCloseTo(10);
    expect(ageInDays({ occurredAt: null, createdAt: 'garbage' }, now)).toBe(0);
  });

  it('is 1 with weight 0', () => {
    expect(recencyFactor({ occurredAt: daysAgo(400), createdAt: daysAgo(400) }, now, { halfLifeDays: 30, weight: 0 })).toBe(1);
  });
});
