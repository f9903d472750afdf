import { describe, expect, it } from 'vitest';
import { AccessPolicy } from './auth.js';

const KEY_A = 'a'.repeat(24);
const KEY_RO = 'r'.repeat(24);

describe('AccessPolicy', () => {
  const policy = new AccessPolicy([
    { key: KEY_A, name: 'team-a', namespaces: ['team-a'], readOnly: false },
    { key: KEY_RO, name: 'auditor', namespaces: ['team-a', 'team-b'], readOnly: true },
  ]);

  it('trusts every caller when no keys are configured', () => {
    const principal = new AccessPolicy([]).authenticate(undefined);
    expect(principal.readableNamespaces).toBeNull();
    expect(() => principal.assertWrite('anything')).not.toThrow();
  });

  it('requires a known key when keys are configured', () => {
    expect(() => policy.authenticate(undefined)).toThrow(expect.objectContaining({ code: 'UNAUTHENTICATED' }));
    expect(() => policy.authenticate('Bearer ' + 'x'.repeat(24))).toThrow(expect.objectContaining({ code: 'UNAUTHENTICATED' }));
  });

  it('confines a key to its namespaces', () => {
    const principal = policy.authenticate(`Bearer ${KEY_A}`);
    expect(() => principal.assertWrite('team-a')).not.toThrow();
    expect(() => principal.assertRead('team-b')).toThrow(expect.objectContaining({ code: 'FORBIDDEN' }));
  });

  it('lets a read-only key read but not write', () => {
    const principal = policy.authenticate(undefined, KEY_RO);
    expect(() => principal.assertRead('team-b')).not.toThrow();
    expect(() => principal.assertWrite('team-b')).toThrow(expect.objectContaining({ code: 'FORBIDDEN' }));
  });
});
