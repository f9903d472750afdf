import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isCleanText, wellFormedText } from '../../test/support/well-formed-text.js';
import { cleanJsonStrings, cleanText, CleanupTally } from './well-formed.js';

/** The characters the module acts on, and ordinary ones around them. */
const SPECIALS = [
  '\t',
  '\n',
  '\r',
  '\r\n',
  '\u000b',
  '\u000c',
  '\u0085',
  '\u2028',
  '\u2029', // whitespace controls
  '\u0000',
  '\u0001',
  '\u0007',
  '\u001b',
  '\u007f',
  '\u0080',
  '\u009f', // other C0/C1 controls, NUL, DEL
  '\u202a',
  '\u202b',
  '\u202c',
  '\u202d',
  '\u202e',
  '\u2066',
  '\u2067',
  '\u2068',
  '\u2069', // bidi
  '\u200b',
  '\u2060',
  '\ufeff', // invisible
  '\ud800',
  '\udbff',
  '\udc00',
  '\udfff', // surrogate halves
  '\u200d',
  '\u200c',
  '\u200e',
  '\u200f',
  '\u061c',
  '\u00ad',
  '\u00a0', // kept
  '\ud83d\ude00',
  '👩\u200d💻',
  'é',
  'e\u0301',
  '中',
  'a',
  ' ', // kept
];
const unit = fc.oneof(
  fc.constantFrom(...SPECIALS),
  fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
  fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 1 }),
);
const anyText = fc.string({ unit, maxLength: 300 });

/** Well-formed UTF-16: UTF-8 encoding (which replaces a lone half) gives back the same string. */
const isWellFormed = (s: string) => Buffer.from(s, 'utf8').toString('utf8') === s;

const REMOVED = /[\u0000-\u0008\u000e-\u001f\u007f-\u0084\u0086-\u009f\u200b\u202a-\u202e\u2060\u2066-\u2069\ufeff]/;

describe('cleanText', () => {
  it('turns whitespace controls into the space or line break they stand for', () => {
    expect(cleanText('a\tb')).toBe('a b');
    expect(cleanText('a\r\nb\rc\u000bd\u000ce\u0085f\u2028g\u2029h')).toBe('a\nb\nc\nd\ne\nf\ng\nh');
    expect(wellFormedText('spec:\u000bwidth 3\u000cheight 4').cleanup).toEqual([]);
  });

  it('removes other controls, NUL and DEL, and counts them', () => {
    expect(wellFormedText('bell\u0007nul\u0000esc\u001b[0mdel\u007fc1\u0080\u009f')).toEqual({
      text: 'bellnulesc[0mdelc1',
      cleanup: [{ kind: 'control', count: 6 }],
    });
  });

  it('removes bidi embeddings, overrides and isolates, keeps the marks right-to-left text needs', () => {
    // "Trojan source": an override that would show `admin` where the text says otherwise.
    const { text, cleanup } = wellFormedText('user\u202e nimda\u202c \u2066x\u2069 \u200fשלום\u200e');
    expect(text).toBe('user nimda x \u200fשלום\u200e');
    expect(cleanup).toEqual([{ kind: 'bidi', count: 4 }]);
  });

  it('removes zero-width space, word joiner and BOM, keeps ZWJ and ZWNJ', () => {
    const { text, cleanup } = wellFormedText('\ufeffpass\u200bword \u2060x 👩\u200d💻 می\u200cخواهم');
    expect(text).toBe('password x 👩\u200d💻 می\u200cخواهم');
    expect(cleanup).toEqual([{ kind: 'invisible', count: 3 }]);
  });

  it('replaces a lone surrogate half with U+FFFD and keeps whole pairs', () => {
    const cut = '😀'.slice(0, 1);
    const { text, cleanup } = wellFormedText(`ok 😀 cut ${cut} tail \udc00 end${cut}`);
    expect(text).toBe('ok 😀 cut \ufffd tail \ufffd end\ufffd');
    expect(cleanup).toEqual([{ kind: 'lone_surrogate', count: 3 }]);
    expect(isWellFormed(text)).toBe(true);
  });

  it('returns clean text as it is', () => {
    const text = 'Ada moved to Berlin.\n\nShe leads billing 👩\u200d💻';
    expect(cleanText(text)).toBe(text);
    expect(isCleanText(text)).toBe(true);
  });

  it('tallies across several strings', () => {
    const tally = new CleanupTally();
    cleanText('a\u0000', tally);
    cleanText('\u202eb\u0001', tally);
    expect(tally.list()).toEqual([
      { kind: 'control', count: 2 },
      { kind: 'bidi', count: 1 },
    ]);
  });
});

describe('cleanJsonStrings', () => {
  it('cleans keys and string values at any depth, leaves other values alone', () => {
    const tally = new CleanupTally();
    const cleaned = cleanJsonStrings({ 'k\u0000ey': ['v\u202e', { deep: 'x\u000by' }], n: 1.5, b: true, z: null }, tally);
    expect(cleaned).toEqual({ key: ['v', { deep: 'x\ny' }], n: 1.5, b: true, z: null });
    expect(tally.list()).toEqual([
      { kind: 'control', count: 1 },
      { kind: 'bidi', count: 1 },
    ]);
  });
});

describe('cleanText (properties)', () => {
  it('yields well-formed text with nothing left to clean, and is idempotent', () => {
    fc.assert(
      fc.property(anyText, (raw) => {
        const once = cleanText(raw);
        expect(isWellFormed(once)).toBe(true);
        expect(isCleanText(once)).toBe(true);
        expect(cleanText(once)).toBe(once);
        expect(once).not.toMatch(REMOVED);
        expect(once).not.toMatch(/[\r\u000b\u000c\u0085\u2028\u2029\t]/);
      }),
      { numRuns: 1_000 },
    );
  });

  it('keeps every other character, in order, and counts exactly what it removed or replaced', () => {
    fc.assert(
      fc.property(anyText, (raw) => {
        const { text, cleanup } = wellFormedText(raw);
        // The expected text, built code unit by code unit from the rules.
        let expected = '';
        let removed = 0;
        let replaced = 0;
        for (let i = 0; i < raw.length; i++) {
          const c = raw.charCodeAt(i);
          const next = raw.charCodeAt(i + 1);
          if (c >= 0xd800 && c <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
            expected += raw[i]! + raw[i + 1]!;
            i++;
          } else if (c >= 0xd800 && c <= 0xdfff) {
            expected += '\ufffd';
            replaced++;
          } else if (raw[i] === '\r' && raw[i + 1] === '\n') {
            expected += '\n';
            i++;
          } else if (raw[i] === '\t') expected += ' ';
          else if ('\r\u000b\u000c\u0085\u2028\u2029'.includes(raw[i]!)) expected += '\n';
          else if (REMOVED.test(raw[i]!)) removed++;
          else expected += raw[i];
        }
        expect(text).toBe(expected);
        expect(cleanup.filter((c) => c.kind !== 'lone_surrogate').reduce((n, c) => n + c.count, 0)).toBe(removed);
        expect(cleanup.find((c) => c.kind === 'lone_surrogate')?.count ?? 0).toBe(replaced);
      }),
      { numRuns: 1_000 },
    );
  });
});
