/**
 * Content normalization: one deterministic function that
 * yields the text we store, the text we index and hash, and the exact-dedup key.
 *
 * Decision: the design collapses ALL whitespace (/\s+/g → " ") for storage. We keep paragraph
 * breaks in `storageContent` because chunking splits on blank lines, headers and list starts;
 * only horizontal runs are collapsed and 3+ newlines become exactly two.
 * `normalizedContent` is the dedup form (all whitespace collapsed, lowercased, trailing
 * punctuation stripped), so two texts that differ only in layout share one `contentHash`.
 */
import { createHash } from 'node:crypto';

import { cleanText, trimEndChars } from '../text/index.js';

export interface NormalizedContent {
  /** What gets stored: NFC, trimmed, LF line ends, horizontal runs collapsed, ≤ 1 blank line in a row. */
  storageContent: string;
  /** The full-text and hash basis: all whitespace collapsed, lowercased, trailing [.,!?;:] stripped. */
  normalizedContent: string;
  /** SHA-256 hex (64 chars) of normalizedContent, or of the lowercased storage text when that is empty. */
  contentHash: string;
}

/** Trailing punctuation stripped from the normalized form ("done." and "done" are one memory). */
export const TRAILING_PUNCTUATION_CHARS = '.,!?;:';

// Every whitespace character except "\n" (after line ends are unified): spaces, tabs, NBSP, …
const HORIZONTAL_WS_RUN = /[^\S\n]+/g;

export function normalizeContent(raw: string): NormalizedContent {
  // Well-formed first (src/text/well-formed.ts): line ends unified, controls, bidi and invisible
  // characters gone, lone surrogates replaced; the write path has already counted them.
  const storageContent = cleanText(raw)
    .normalize('NFC')
    .replace(HORIZONTAL_WS_RUN, ' ')
    .replace(/ +\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  const normalizedContent = trimEndChars(storageContent.replace(/\s+/g, ' ').toLowerCase(), TRAILING_PUNCTUATION_CHARS).trimEnd();
  const hashBasis = normalizedContent.length > 0 ? normalizedContent : storageContent.toLowerCase();
  const contentHash = createHash('sha256').update(hashBasis, 'utf8').digest('hex');
  return { storageContent, normalizedContent, contentHash };
}
