import { describe, expect, it } from 'vitest';
import { redactSecrets } from './redact.js';
import { loadConfig } from '../config/load.js';
import { LinearRegExp } from './extra-patterns.js';

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
    expect(
      load([
        { kind: 'TICKET', pattern: 'TKT-\\d{4,8}' },
        { kind: 'EMPLOYEE_ID', pattern: 'emp[-_ ]?[0-9]+', flags: 'i' },
      ]).REDACTION_EXTRA_PATTERNS,
    ).toHaveLength(2);
  });

  // Patterns that take exponential or polynomial time on a backtracking engine; safe-regex2 let
  // the polynomial ones through. They run on RE2 now, so they are accepted and stay linear.
  const SUPER_LINEAR: Array<[string, string, string]> = [
    ['nested quantifiers', '(a+)+$', `${'a'.repeat(50_000)}!`],
    ['a repeated group of a repeated class', '([A-Za-z0-9]+\\s?)*x', `${'ab1 '.repeat(12_500)}!`],
    ['a repeated alternation group', '(?:\\w+|\\d+)*!', `${'1'.repeat(50_000)}`],
    ['adjacent unbounded quantifiers (polynomial)', '\\d+\\d+\\d+x', `${'1'.repeat(50_000)}`],
    ['overlapping alternation (exponential)', '(a|a)*b', `${'a'.repeat(50_000)}`],
    ['a quantified wildcard pair (quadratic)', '.*.*=.*;', `${'a='.repeat(25_000)}`],
  ];

  it.each(SUPER_LINEAR)('accepts %s and runs it in linear time on RE2', (_, pattern, input) => {
    const config = load([{ kind: 'CUSTOM', pattern }]);
    expect(config.REDACTION_EXTRA_PATTERNS).toHaveLength(1);
    const t0 = performance.now();
    redactSecrets(input, { extraPatterns: config.REDACTION_EXTRA_PATTERNS, rejectUnmaskable: false });
    expect(performance.now() - t0).toBeLessThan(2_000); // the backtracking engine takes minutes to forever here
  });

  it.each([
    ['a backreference', '(a)\\1'],
    ['a lookahead', 'secret(?=:)'],
    ['a negative lookbehind', '(?<!x)token'],
  ])('refuses %s (needs backtracking), naming the pattern by index and kind', (_, pattern) => {
    const message = problemsOf([
      { kind: 'OK', pattern: 'x' },
      { kind: 'BAD', pattern },
    ]);
    expect(message).toMatch(/CONFIG_INVALID|invalid configuration/);
    expect(message).toContain('pattern 1 (BAD) needs backtracking');
  });

  it('masks what the JavaScript engine would: flags, groups, empty matches, surrogate pairs', () => {
    const replace = (pattern: string, flags: string, text: string) => text.replace(new LinearRegExp(pattern, flags), (m) => `<${m}>`);
    for (const [pattern, flags, text] of [
      ['emp[-_ ]?[0-9]+', 'gi', 'EMP-123 and emp_4 and Emp 56'],
      ['x*', 'g', 'abxxc'],
      ['^id:\\w+$', 'gm', 'id:one\nid:two\nno'],
      ['a.b', 'gs', 'a\nb axb'],
      ['😀+x', 'gu', 'ab😀😀x 😀'],
      ['(?<year>\\d{4})-\\d{2}', 'g', 'on 2026-11 and 1999-01'],
      ['tkt', 'i', 'TKT tkt'],
    ] as const) {
      expect(replace(pattern, flags, text), pattern).toBe(text.replace(new RegExp(pattern, flags), (m) => `<${m}>`));
    }
    expect(() => new LinearRegExp('a', 'g').exec()).toThrow(/only replaces/);
  });

  it('refuses a pattern that does not compile without echoing it', () => {
    const message = problemsOf([{ kind: 'BROKEN', pattern: `(${'x'.repeat(400)}` }]);
    expect(message).toContain('pattern 0 (BROKEN) is not a valid JavaScript regular expression');
    expect(message).not.toContain('x'.repeat(50));
  });

  it.each([
    [
      'an over-long pattern (the engine would say "Regular expression too large" on every write)',
      [{ kind: 'HUGE', pattern: 'a'.repeat(50_000) }],
    ],
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
