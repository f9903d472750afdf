import { describe, expect, it } from 'vitest';
import { validateRememberInput } from './validate-input.js';

const LIMITS = { defaultNamespace: 'default', maxContentChars: 40, maxMetadataBytes: 10_000 };

describe('validateRememberInput: every text field made well-formed, never refused for a stray character', () => {
  it('cleans content, short fields, tags and metadata, and counts what it removed across them', () => {
    const v = validateRememberInput(
      {
        content: 'Spec\u000bwidth\u0000 3 cm',
        sessionId: 's\u202e1',
        who: 'ada\u200b',
        tags: ['a\u0007', 'a'],
        metadata: { 'k\u0000': ['v\ud800', { deep: 'x\u000cy' }], n: 1 },
      },
      LIMITS,
    );
    expect(v.content).toBe('Spec\nwidth 3 cm');
    expect(v.sessionId).toBe('s1');
    expect(v.who).toBe('ada');
    expect(v.tags).toEqual(['a']);
    expect(JSON.parse(v.metadata!)).toEqual({ k: ['v\ufffd', { deep: 'x\ny' }], n: 1 });
    expect(v.cleanup).toEqual([
      { kind: 'control', count: 3 },
      { kind: 'bidi', count: 1 },
      { kind: 'invisible', count: 1 },
      { kind: 'lone_surrogate', count: 1 },
    ]);
  });

  it('refuses an item that is not an object, or content that is not a string, as BAD_USER_INPUT (an in-process batch answers it in place)', () => {
    expect(() => validateRememberInput(null as never, LIMITS)).toThrow(expect.objectContaining({ code: 'BAD_USER_INPUT' }));
    expect(() => validateRememberInput({ content: 42 } as never, LIMITS)).toThrow(expect.objectContaining({ code: 'BAD_USER_INPUT' }));
  });

  it('refuses content that cleaning leaves blank, saying why', () => {
    expect(() => validateRememberInput({ content: '\u0000\u202e\u200b ' }, LIMITS)).toThrow(
      /once control, bidi and invisible characters are removed/,
    );
    expect(() => validateRememberInput({ content: '   ' }, LIMITS)).toThrow(/must not be empty or whitespace$/);
  });

  it('bounds the cleaned content: removed characters do not count against MAX_CONTENT_CHARS', () => {
    const padded = `${'x'.repeat(40)}${'\u0000'.repeat(20)}`;
    expect(validateRememberInput({ content: padded }, LIMITS).content).toBe('x'.repeat(40));
    expect(() => validateRememberInput({ content: 'x'.repeat(41) }, LIMITS)).toThrow(/maximum is 40/);
  });
});
