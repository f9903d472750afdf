import type { z } from 'zod/v3';
import { termDocumentFrequencies, type NamespaceSize } from '../../db/search/index.js';
import { escapeLuceneTerm, namespaceToken, queryTokens } from '../../text/index.js';
import type { LegHit } from '../candidates.js';
import { flag, num, section } from '../settings/fields.js';
import type { RecallRun } from './stage.js';

export const keywordStatsSettings = section({
  namespaceScoped: flag()
    .default(false)
    .describe(
      "re-score the keyword leg's hits by BM25 with the namespace's own statistics (its memory count, each query term's document frequency in it, its mean length), so other namespaces' data cannot move its ranking",
    ),
  k1: num({ min: 0 }).default(1.2).describe('BM25 term-frequency saturation'),
  b: num({ min: 0, max: 1 }).default(0.75).describe('BM25 length normalization'),
});
export type KeywordStatsSettings = z.output<typeof keywordStatsSettings>;

/** Document frequencies are counted up to this many memories per term (bounded queries). */
export const DF_CAP = 2_000;
/** Query terms looked up (the question's first ones). */
const MAX_TERMS = 32;
const WORD = /[\p{L}\p{N}][\p{L}\p{M}\p{N}]*/gu;

/**
 * A light English stemmer, the same on both sides (query terms and content): possessive, plural,
 * -ed and -ing, a final e and a doubled final consonant. Close to what the full-text index's
 * English analyzer does, without its regular expressions; only string operations, linear time.
 */
export function lightStem(word: string): string {
  let w = word.toLowerCase();
  if (w.length <= 3) return w;
  if (w.endsWith('ies') && w.length > 4) w = `${w.slice(0, -3)}y`;
  else if (w.endsWith('sses')) w = w.slice(0, -2);
  else if (w.endsWith('s') && !w.endsWith('ss') && !w.endsWith('us') && !w.endsWith('is')) w = w.slice(0, -1);
  if (w.endsWith('ing') && w.length > 5) w = w.slice(0, -3);
  else if (w.endsWith('ed') && w.length > 4) w = w.slice(0, -2);
  if (w.endsWith('e') && w.length > 3) w = w.slice(0, -1);
  const n = w.length;
  if (n > 3 && w[n - 1] === w[n - 2] && !'aeiouls'.includes(w[n - 1]!)) w = w.slice(0, -1);
  return w;
}

/** Each stemmed word of `text` and how often it occurs. */
export function termCounts(text: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const match of text.normalize('NFC').matchAll(WORD)) {
    const stem = lightStem(match[0]);
    counts.set(stem, (counts.get(stem) ?? 0) + 1);
  }
  return counts;
}

export interface NamespaceTermStats {
  /** Memories of the namespace. */
  documents: number;
  /** Mean content length, characters. */
  meanChars: number;
  /** Per query term (stemmed), the namespace's memories that hold it (capped). */
  df: ReadonlyMap<string, number>;
}

/**
 * BM25 of one memory for the question's terms with the namespace's statistics only: idf from the
 * namespace's document count and document frequencies, length normalization from the memory's own
 * length against the namespace's mean (both in characters).
 */
export function namespaceBm25(content: string, stats: NamespaceTermStats, settings: Pick<KeywordStatsSettings, 'k1' | 'b'>): number {
  const counts = termCounts(content);
  const norm = 1 - settings.b + settings.b * (stats.meanChars > 0 ? content.length / stats.meanChars : 1);
  let score = 0;
  for (const [term, frequency] of stats.df) {
    const tf = counts.get(term) ?? 0;
    if (tf === 0) continue;
    // A memory that holds the term is one of its documents, whatever the analyzers disagree on.
    const df = Math.max(1, frequency);
    const n = Math.max(stats.documents, df);
    const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
    score += (idf * tf * (settings.k1 + 1)) / (tf + settings.k1 * norm);
  }
  return score;
}

/**
 * The keyword re-scoring (on with `keywordStats.namespaceScoped`): the keyword leg's hits scored
 * again by namespaceBm25, so that a namespace's keyword ranking does not move when other
 * namespaces are written (the full-text index's own statistics are index-wide). One bounded
 * statement counts each query term's documents in the namespace (db/search/namespace-stats.ts);
 * the hits' content comes from hydration. Explains `keyword` (its raw score is this BM25).
 * Failure rule: the Lucene scores as they came.
 */
export async function rescoreKeywordHits(
  run: RecallRun,
  hits: LegHit[],
  size: NamespaceSize | null,
  settings: KeywordStatsSettings,
): Promise<LegHit[]> {
  if (!settings.namespaceScoped || hits.length === 0 || size === null) return hits;
  try {
    return await run.timer.run('keywordStats', async () => {
      // One word per stem, as the question wrote it: the index's English analyzer stems it its own way.
      const byStem = new Map<string, string>();
      for (const word of queryTokens(run.query)) if (!byStem.has(lightStem(word))) byStem.set(lightStem(word), word);
      const terms = [...byStem].slice(0, MAX_TERMS);
      const token = namespaceToken(run.namespace);
      const dfs = await termDocumentFrequencies(
        run.executor,
        terms.map(([, word]) => `namespaceToken:${token}^0 AND (${escapeLuceneTerm(word)})`),
        DF_CAP,
      );
      const df = new Map(terms.map(([stem], i) => [stem, dfs[i]!]));
      const stats: NamespaceTermStats = { documents: size.memories, meanChars: size.meanChars, df };
      return hits.map((hit) => {
        const memory = run.memories.get(hit.memoryId);
        return memory ? { memoryId: hit.memoryId, score: namespaceBm25(memory.content, stats, settings) } : hit;
      });
    });
  } catch (error) {
    run.logger.warn({ error }, 'keyword re-scoring failed; recall keeps the full-text scores');
    return hits;
  }
}
