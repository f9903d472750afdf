import { describe, expect, it } from 'vitest';
import { confidence, entityName, entityType, factKind, relationType, storedText } from './validate.js';

const redaction = { enabled: true };

describe('structured-write validation', () => {
  it('canonicalizes names and redacts secrets before they are stored', () => {
    expect(entityName('  Alice   Martin ', 'name', redaction)).toEqual({ name: 'Alice Martin', canonicalName: 'alice martin' });
    const stored = storedText('token ghp_0123456789abcdefghijABCDEFGHIJ012345 for CI', 'description', 200, redaction);
    expect(stored).not.toContain('ghp_0123456789');
    expect(() => storedText('   ', 'name', 10, redaction)).toThrow(/blank/);
    expect(() => storedText('x'.repeat(11), 'name', 10, redaction)).toThrow(/longer than 10/);
  });

  it('accepts relation types from a small alphabet only, lowercased', () => {
    expect(relationType('Works_At', redaction)).toBe('works_at');
    expect(relationType('reports  to', redaction)).toBe('reports to');
    for (const bad of ['x]->(n) DETACH DELETE n', '`KNOWS`', '-leading', 'a:b', '']) {
      expect(() => relationType(bad, redaction), bad).toThrow();
    }
  });

  it('checks entity types, fact kinds and confidence', () => {
    expect(entityType(undefined)).toBe('unknown');
    expect(entityType('organization')).toBe('organization');
    expect(() => entityType('extracted')).toThrow(/type must be one of/);
    expect(factKind(null)).toBe('attribute');
    expect(() => factKind('rumour')).toThrow(/kind/);
    expect(confidence(undefined)).toBe(1);
    expect(() => confidence(1.01)).toThrow();
    expect(() => confidence(Number.NaN)).toThrow();
  });
});
