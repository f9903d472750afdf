/**
 * Properties of content normalization (fast-check): it is idempotent, and the content hash (the
 * exact-dedup key) does not move under layout or Unicode-composition variants of the same text.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { normalizeContent } from './normalize.js';

const RUNS = 300;
/** Whitespace a client may send between words: spaces, tabs, NBSP, line ends of every platform. */
const SEPARATORS = [' ', '  ', '\t', '\u00a0', '\u2003', '\n', '\r\n', '\r', '\n\n\n', ' \t \n ', '\u2028', '\u3000'];
const separator = fc.constantFrom(...SEPARATORS);
/** Words with letters that compose differently in NFC and NFD (é, ñ, ü, Å, ḱ) and other scripts. */
const word = fc.stringMatching(/^[a-zA-Z0-9éñüÅḱ中ß-]{1,12}$/);
const words = fc.array(word, { minLength: 1, maxLength: 30 });
/** Any text, lone surrogates and control characters included. */
const anyText = fc.string({
  unit: fc.oneof(
    fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
    fc.constantFrom(...SEPARATORS, '\u0000', '\u001b', '\ud800', '\udfff'),
  ),
  maxLength: 400,
});

describe('normalizeContent (properties)', () => {
  it('is idempotent: normalizing stored content again changes nothing', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ unit: 'binary', maxLength: 400 }),
          anyText,
          words.map((w) => w.join(' \n\t ')),
        ),
        (raw) => {
          const once = normalizeContent(raw);
          const twice = normalizeContent(once.storageContent);
          expect(twice).toEqual(once);
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('hashes the same whatever whitespace separates the words, and whatever surrounds them', () => {
    fc.assert(
      fc.property(words, fc.array(separator, { minLength: 60, maxLength: 60 }), separator, separator, (ws, seps, lead, trail) => {
        const canonical = normalizeContent(ws.join(' '));
        const varied = normalizeContent(lead + ws.map((w, i) => (i === 0 ? w : seps[i % seps.length] + w)).join('') + trail);
        expect(varied.contentHash).toBe(canonical.contentHash);
        expect(varied.normalizedContent).toBe(canonical.normalizedContent);
      }),
      { numRuns: RUNS },
    );
  });

  it('hashes NFC and NFD spellings of any text the same, and stores the NFC one', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ unit: 'grapheme', maxLength: 200 }),
          words.map((w) => w.join(' ')),
        ),
        (text) => {
          const nfc = normalizeContent(text.normalize('NFC'));
          const nfd = normalizeContent(text.normalize('NFD'));
          expect(nfd.contentHash).toBe(nfc.contentHash);
          expect(nfd.storageContent).toBe(nfc.storageContent);
          expect(nfc.storageContent).toBe(nfc.storageContent.normalize('NFC'));
        },
      ),
      { numRuns: RUNS },
    );
  });

  // ß upper-cases to SS, which lower-cases to ss: case variants are taken where case round-trips.
  const caseWords = fc.array(fc.stringMatching(/^[a-zA-Z0-9éñüÅ中-]{1,12}$/), { minLength: 1, maxLength: 30 });

  it('hashes case and trailing-punctuation variants the same, and different words differently', () => {
    fc.assert(
      fc.property(caseWords, fc.constantFrom('', '.', '!', '?!', '...', ';'), (ws, end) => {
        const text = ws.join(' ');
        expect(normalizeContent(text.toUpperCase() + end).contentHash).toBe(normalizeContent(text.toLowerCase()).contentHash);
        const other = normalizeContent(`${text} zzz-${ws.length}`);
        expect(other.contentHash).not.toBe(normalizeContent(text).contentHash);
      }),
      { numRuns: RUNS },
    );
  });
});
