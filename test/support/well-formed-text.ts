import { cleanText, CleanupTally, type TextCleanup } from '../../src/text/index.js';

/** `cleanText` with its own tally: the text and what was removed or replaced. */
export function wellFormedText(text: string): { text: string; cleanup: TextCleanup } {
  const tally = new CleanupTally();
  return { text: cleanText(text, tally), cleanup: tally.list() };
}

/** True when `text` holds nothing cleanText would change (every cleanup changes the text). */
export function isCleanText(text: string): boolean {
  return cleanText(text) === text;
}
