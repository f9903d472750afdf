import { describe, expect, it } from 'vitest';
import { loadConfig } from './load.js';

const load = (patterns: unknown) => loadConfig({ REDACTION_EXTRA_PATTERNS: JSON.stringify(patterns) });
const problemsOf = (patterns: unknown): string => {
  try {
    load(patterns);
  } catch (error) {
    return (error as Error).message;
  }
  return '';
};

describe('REDACTION_EXTRA_PATTERNS, validated at start-up', () => {
  it('accepts linear patterns with allowed flags', () => {
    expect(load([{ kind: 'TICKET', pattern: 'TKT-\\d{4,8}' }, { kind: 'EMPLOYEE_ID', pattern: 'emp[-_ ]?[0-9]+', flags: 'i' }]).REDACTION_EXTRA_PATTERNS).toHaveLength(2);
  });

  it.each([
    ['nested quantifiers', '(a+)+$'],
    ['a repeated group of a repeated class', '([A-Za-z0-9]+\\s?)*x'],
    ['a repeated alternation group', '(?:\\w+|\\d+)*!'],
  ])('refuses %s as super-linear, naming the pattern by index and kind', (_, pattern) => {
    const message = problemsOf([{ kind: 'OK', pattern: 'x' }, { kind: 'BAD', pattern }]);
    expect(message).toMatch(/CONFIG_INVALID|invalid configuration/);
    expect(message).toContain('pattern 1 (BAD) may take super-linear time');
  });

  it('refuses a pattern that does not compile without echoing it', () => {
    const message = problemsOf([{ kind: 'BROKEN', pattern: `(${'x'.repeat(400)}` }]);
    expect(message).toContain('pattern 0 (BROKEN) is not a valid JavaScript regular expression');
    expect(message).not.toContain('x'.repeat(50));
  });

  it.each([
    ['an over-long pattern (the engine would say "Regular expression too large" on every write)', [{ kind: 'HUGE', pattern: 'a'.repeat(50_000) }]],
    ['unknown flags', [{ kind: 'STICKY', pattern: 'a', flags: 'y' }]],
    ['a lower-case kind', [{ kind: 'ticket', pattern: 'a' }]],
    ['too many patterns', Array.from({ length: 51 }, (_, i) => ({ kind: `K${i}`, pattern: 'a' }))],
    ['not an array', { kind: 'A', pattern: 'a' }],
  ])('refuses %s', (_, patterns) => {
    const message = problemsOf(patterns);
    expect(message).toContain('REDACTION_EXTRA_PATTERNS');
    expect(message.length).toBeLessThan(1_000);
  });
});
