import { queryTokens } from '../text/index.js';

/** A memory counts as used when at least this share of its words came up in the session. */
export const USED_THRESHOLD = 0.3;

export interface ContinuityScore {
  /** Mean relevance of the injected memories, in [0, 1]; 0 when none was injected. */
  score: number;
  /** Injected memories counted as used. */
  used: number;
  /** Per injected memory, in the order given. */
  relevance: number[];
}

/**
 * How much of what was injected at session start the session went on to use, without a model:
 * a memory's relevance is the share of its words (stop words left out) that appear in the
 * session's text (transcript, prompts, memories written); one the session's own recall found by
 * keyword counts as fully relevant.
 */
export function scoreContinuity(
  injected: ReadonlyArray<{ id: string; content: string }>,
  sessionText: string,
  keywordHits: readonly string[],
): ContinuityScore {
  const seen = new Set(queryTokens(sessionText));
  const hits = new Set(keywordHits);
  const relevance = injected.map((m) => {
    if (hits.has(m.id)) return 1;
    const words = queryTokens(m.content);
    if (words.length === 0) return 0;
    return Math.round((words.filter((w) => seen.has(w)).length / words.length) * 1000) / 1000;
  });
  const score = relevance.length ? Math.round((relevance.reduce((a, b) => a + b, 0) / relevance.length) * 1000) / 1000 : 0;
  return { score, used: relevance.filter((r) => r >= USED_THRESHOLD).length, relevance };
}
