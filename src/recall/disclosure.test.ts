import { describe, expect, it } from 'vitest';
import { snippet } from './disclosure.js';

describe('snippet', () => {
  it('returns short text on one line', () => {
    expect(snippet('  hello\n  world  ')).toBe('hello world');
  });

  it('cuts long text at a word boundary within the limit', () => {
    const out = snippet('the quick brown fox jumps over the lazy dog', 20);
    expect(out).toBe('the quick brown fox…');
    expect([...out].length).toBeLessThanOrEqual(20);
  });

  it('cuts a single long word hard', () => {
    expect(snippet('x'.repeat(50), 10)).toBe(`${'x'.repeat(9)}…`);
  });
});
