import type { RankedCandidate } from './types.js';

export const DEFAULT_SNIPPET_CHARS = 120;

/** One line of the compact `search` index (progressive disclosure, step 1): enough to decide what to fetch. */
export interface IndexEntry {
  memoryId: string;
  type: string;
  /** occurredAt, else createdAt. */
  date: string;
  score: number;
  snippet: string;
}

export function toIndexEntry(item: RankedCandidate, maxChars = DEFAULT_SNIPPET_CHARS): IndexEntry {
  const { candidate } = item;
  return {
    memoryId: candidate.memoryId,
    type: candidate.type,
    date: candidate.occurredAt ?? candidate.createdAt,
    score: item.score,
    snippet: snippet(candidate.content, maxChars),
  };
}

/** The start of `text` on one line, cut at a word boundary with an ellipsis when longer than `maxChars`. */
export function snippet(text: string, maxChars = DEFAULT_SNIPPET_CHARS): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  const chars = [...flat];
  if (chars.length <= maxChars) return flat;
  const keep = Math.max(1, maxChars - 1);
  const cut = chars.slice(0, keep).join('');
  if (chars[keep] === ' ') return `${cut}…`;
  const space = cut.lastIndexOf(' ');
  return `${space > cut.length / 2 ? cut.slice(0, space) : cut}…`;
}
