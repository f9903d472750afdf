import { createHash } from 'node:crypto';
import { describe, it, expect } from 'vitest';
import { normalizeContent } from './normalize.js';

const sha256 = (s: string) => createHash('sha256').update(s, 'utf8').digest('hex');

describe('normalizeContent', () => {
  it('trims, unifies line ends and collapses horizontal whitespace', () => {
    const { storageContent } = normalizeContent('  Hello\t\t  world  \r\nsecond   line \r\n');
    expect(storageContent).toBe('Hello world\nsecond line');
  });

  it('stores well-formed text (src/text/well-formed.ts): vertical tabs and form feeds are line breaks, controls and bidi overrides gone', () => {
    const { storageContent, contentHash } = normalizeContent('Width:\u000b3 cm\u000cHeight:\u000b4\u0000 cm \u202eok\u202c');
    expect(storageContent).toBe('Width:\n3 cm\nHeight:\n4 cm ok');
    expect(contentHash).toBe(normalizeContent('Width:\n3 cm\nHeight:\n4 cm ok').contentHash);
  });

  it('keeps paragraph breaks but caps them at one blank line', () => {
    const { storageContent } = normalizeContent('para one\n\n\n\n  \n\npara two\n\npara three');
    expect(storageContent).toBe('para one\n\npara two\n\npara three');
  });

  it('applies NFC so composed and decomposed forms are equal', () => {
    const composed = normalizeContent('caf\u00e9');
    const decomposed = normalizeContent('cafe\u0301');
    expect(decomposed.storageContent).toBe(composed.storageContent);
    expect(decomposed.contentHash).toBe(composed.contentHash);
  });

  it('builds the normalized form: all whitespace collapsed, lowercased, trailing punctuation stripped', () => {
    const { storageContent, normalizedContent } = normalizeContent('We chose Redis.\n\nIt is FAST!!!');
    expect(storageContent).toBe('We chose Redis.\n\nIt is FAST!!!');
    expect(normalizedContent).toBe('we chose redis. it is fast');
  });

  it('hashes the normalized form, so layout-only differences dedup', () => {
    const a = normalizeContent('We chose Redis for sessions.');
    const b = normalizeContent('we   chose\nRedis for   sessions');
    expect(a.contentHash).toBe(b.contentHash);
    expect(a.contentHash).toBe(sha256('we chose redis for sessions'));
    expect(a.contentHash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('falls back to the lowercased storage text when the normalized form is empty', () => {
    const { normalizedContent, contentHash } = normalizeContent(' ...!? ');
    expect(normalizedContent).toBe('');
    expect(contentHash).toBe(sha256('...!?'));
  });

  it('handles empty input without throwing', () => {
    expect(normalizeContent('   ')).toEqual({ storageContent: '', normalizedContent: '', contentHash: sha256('') });
  });

  it('is idempotent on its own output', () => {
    const once = normalizeContent('  A\u00a0 b\r\n\r\n\r\nC.  ');
    const twice = normalizeContent(once.storageContent);
    expect(twice).toEqual(once);
  });
});
