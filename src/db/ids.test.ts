import { describe, expect, it } from 'vitest';
import { derivedId } from './ids.js';

describe('derivedId', () => {
  it('is stable for the same base and key and differs otherwise', () => {
    const base = '1b4e28ba-2fa1-4d3b-a3f5-ef19b5a7633b';
    expect(derivedId(base, 'a')).toBe(derivedId(base, 'a'));
    expect(derivedId(base, 'a')).not.toBe(derivedId(base, 'b'));
    expect(derivedId(base, 'a')).not.toBe(derivedId('2b4e28ba-2fa1-4d3b-a3f5-ef19b5a7633b', 'a'));
  });

  it('has the UUID shape (version 8, RFC variant)', () => {
    expect(derivedId('x', 'y')).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });
});
