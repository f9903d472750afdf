import { describe, expect, it } from 'vitest';
import { detectContradiction, lexicalOverlap, tokenize } from './contradiction.js';
import { needsSemanticCheck } from './semantic-contradiction.js';

describe('syntactic contradiction detection', () => {
  it('flags a negation-polarity difference with enough overlap', () => {
    const check = detectContradiction('Alice does not use PostgreSQL for billing.', 'Alice uses PostgreSQL for billing.');
    expect(check).toMatchObject({ contradicts: true, kind: 'negation' });
    expect(check.overlap).toBeGreaterThanOrEqual(2);
  });

  it("reads contractions as negations (don't, isn't, can't)", () => {
    expect(tokenize("Bob doesn't like tea")).toEqual(['bob', 'does', 'not', 'like', 'tea']);
    expect(detectContradiction("The deploy pipeline isn't automated", 'The deploy pipeline is automated').contradicts).toBe(true);
  });

  it('flags antonym pairs', () => {
    expect(detectContradiction('Dark mode is enabled in the editor', 'Dark mode is disabled in the editor')).toMatchObject({
      contradicts: true,
      kind: 'antonym',
      detail: 'enabled/disabled',
    });
    expect(detectContradiction('Guests allow access to staging', 'Guests deny access to staging').kind).toBe('antonym');
  });

  it('needs at least two shared content words', () => {
    expect(detectContradiction('Alice does not drink coffee', 'Bob drinks tea').contradicts).toBe(false);
    expect(lexicalOverlap('Alice uses PostgreSQL', 'alice USES postgresql!')).toBe(3);
  });

  it('does not flag agreeing or unrelated statements', () => {
    expect(detectContradiction('Alice never works on weekends', 'Alice never works on Sundays').contradicts).toBe(false);
    expect(detectContradiction('Dark mode is enabled', 'Light theme is enabled').contradicts).toBe(false);
  });

  it('asks for the semantic check only with overlap ≥ 3 and no syntactic hit', () => {
    const migrated = detectContradiction('The billing service uses MongoDB storage', 'The billing service uses PostgreSQL storage');
    expect(migrated.contradicts).toBe(false);
    expect(needsSemanticCheck(migrated)).toBe(true);
    expect(needsSemanticCheck(detectContradiction('Alice likes tea', 'Alice likes coffee'))).toBe(false);
  });
});
