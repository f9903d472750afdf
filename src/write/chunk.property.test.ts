/**
 * Properties of chunking (fast-check): chunks are exact spans of the input, in order, none longer
 * than the maximum, and together they cover every non-blank character of the text.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chunkText, CHUNK_MAX_CHARS, type ChunkOptions } from './chunk.js';

const RUNS = 200;

/** Text with the boundaries chunking looks for: sentences, paragraphs, headers, lists, fences, long words. */
const sentence = fc
  .tuple(
    fc.array(fc.stringMatching(/^[A-Za-z0-9éü中'-]{1,14}$/), { minLength: 1, maxLength: 40 }),
    fc.constantFrom('. ', '! ', '? ', '.\n', '... ', '." ', ' ', ''),
  )
  .map(([ws, end]) => `${ws[0]!.charAt(0).toUpperCase()}${ws.join(' ').slice(1)}${end}`);
const block = fc.oneof(
  { weight: 6, arbitrary: fc.array(sentence, { minLength: 1, maxLength: 12 }).map((s) => s.join('')) },
  { weight: 1, arbitrary: sentence.map((s) => `# ${s}`) },
  { weight: 1, arbitrary: fc.array(sentence, { minLength: 1, maxLength: 5 }).map((items) => items.map((s) => `- ${s}`).join('\n')) },
  { weight: 1, arbitrary: fc.stringMatching(/^[a-z]{1,3}$/).map((w) => w.repeat(900)) }, // one very long word
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 3000 }) }, // anything, surrogates included
);
const document = fc
  .array(block, { minLength: 1, maxLength: 14 })
  .chain((blocks) =>
    fc
      .array(fc.constantFrom('\n\n', '\n', ' ', '\n\n\n', '\r\n\r\n'), { minLength: blocks.length, maxLength: blocks.length })
      .map((seps) => blocks.map((b, i) => b + seps[i]).join('')),
  );
const options = fc.oneof(
  fc.constant<ChunkOptions>({}),
  fc.integer({ min: 50, max: 600 }).chain((target) =>
    fc.record({
      targetChars: fc.constant(target),
      minChars: fc.integer({ min: 10, max: target }),
      maxChars: fc.integer({ min: target, max: target * 2 }),
      overlapMaxChars: fc.integer({ min: 0, max: target }),
    }),
  ),
);

describe('chunkText (properties)', () => {
  it('chunks are exact spans, in order, at most maxChars, covering every non-blank character', () => {
    fc.assert(
      fc.property(document, options, (text, o) => {
        const max = o.maxChars ?? CHUNK_MAX_CHARS;
        const chunks = chunkText(text, o);
        if (text.trim() === '') {
          expect(chunks).toEqual([]);
          return;
        }
        expect(chunks.length).toBeGreaterThan(0);
        const covered = new Uint8Array(text.length);
        chunks.forEach((c, i) => {
          expect(c.index).toBe(i);
          expect(c.text).toBe(text.slice(c.startChar, c.endChar));
          expect(c.endChar).toBeGreaterThan(c.startChar);
          expect(c.text.length).toBeLessThanOrEqual(max);
          if (i > 0) {
            expect(c.startChar).toBeGreaterThan(chunks[i - 1]!.startChar); // in order
            expect(c.endChar).toBeGreaterThan(chunks[i - 1]!.endChar);
            expect(c.startChar).toBeLessThanOrEqual(chunks[i - 1]!.endChar + countBlankAfter(text, chunks[i - 1]!.endChar)); // no gap but blanks
          }
          covered.fill(1, c.startChar, c.endChar);
        });
        const missed = [...Array(text.length).keys()].filter((k) => !covered[k] && text[k]!.trim() !== '');
        expect(missed).toEqual([]);
      }),
      { numRuns: RUNS },
    );
  });

  it('a text within the maximum is one chunk, the text itself', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'binary', minLength: 1, maxLength: CHUNK_MAX_CHARS }).filter((t) => t.trim() !== ''),
        (text) => {
          expect(chunkText(text)).toEqual([{ index: 0, text, startChar: 0, endChar: text.length }]);
        },
      ),
      { numRuns: RUNS },
    );
  });
});

function countBlankAfter(text: string, from: number): number {
  let n = 0;
  while (from + n < text.length && text[from + n]!.trim() === '') n += 1;
  return n;
}
