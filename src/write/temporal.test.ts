import { describe, expect, it } from 'vitest';
import { classifyTemporal } from './temporal.js';

describe('classifyTemporal', () => {
  it('keeps durable facts persistent', () => {
    expect(classifyTemporal('Postgres is the primary database')).toEqual({ temporal: 'persistent', validUntil: null });
  });

  it('marks time-bound state temporal', () => {
    expect(classifyTemporal('Meeting at 3pm tomorrow').temporal).toBe('temporal');
    expect(classifyTemporal('On-call rotation through Friday').temporal).toBe('temporal');
  });

  it('reads an explicit ISO expiry', () => {
    expect(classifyTemporal('Feature flag stays on until 2026-12-01')).toEqual({
      temporal: 'temporal',
      validUntil: '2026-12-01T23:59:59.000Z',
    });
  });
});
