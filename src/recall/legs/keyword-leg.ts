import type { Executor } from '../../db/index.js';
import { hintMatches, keywordInContextMatches, keywordMatches, scopedKeywordMatches } from '../../db/index.js';
import type { LegHit } from '../candidates.js';

export interface KeywordLegOptions {
  namespaceToken: string;
  /** An escaped Lucene query (see toLuceneQuery); null skips the leg. */
  luceneQuery: string | null;
  limit: number;
  includeDeleted: boolean;
  /** A filtered recall's scope (recall/scope.ts): only hits among these memories; null: the namespace. */
  scope?: readonly string[] | null;
  /** Full-text hits read to find the scope's. */
  scopeBound?: number;
}

export interface InContextOptions {
  /** Also read each memory with its neighbourhood in its session, and fuse both readings. */
  enabled: boolean;
  /** Share of the in-context reading in the fused score, in [0, 1]. */
  weight: number;
}

// `namespaceToken:<t>^0` confines the Lucene query to one namespace without adding to the score.
function scoped(options: KeywordLegOptions): string {
  return `namespaceToken:${options.namespaceToken}^0 AND (${options.luceneQuery})`;
}

/**
 * BM25 over memory content (Neo4j full-text index, English analyzer). With `inContext`, the same
 * query also runs over each memory read with its conversation (content and neighbourhood, see
 * db/queries/session-context.ts), and the two readings are fused: each scaled by its best score,
 * weighted, summed. Off by default (recall setting keywordContext): it lifts the keyword leg on
 * dialogue, but the full pipeline, whose context stage already lifts a matched turn's neighbours,
 * lost on both dev sets with it (docs/recall-quality.md).
 */
export async function keywordLeg(executor: Executor, options: KeywordLegOptions, inContext?: InContextOptions): Promise<LegHit[]> {
  if (!options.luceneQuery) return [];
  if (options.scope) {
    if (!inContext?.enabled) return inScope(executor, options, 'keyword');
    const [alone, withContext] = await Promise.all([inScope(executor, options, 'keyword'), inScope(executor, options, 'inContext')]);
    return fuseReadings(alone, withContext, inContext.weight).slice(0, options.limit);
  }
  const search = { query: scoped(options), limit: options.limit, includeDeleted: options.includeDeleted };
  if (!inContext?.enabled) return keywordMatches(executor, search);
  const [alone, withContext] = await Promise.all([keywordMatches(executor, search), keywordInContextMatches(executor, search)]);
  return fuseReadings(alone, withContext, inContext.weight).slice(0, options.limit);
}

/** (1 − weight) × alone / best alone + weight × in context / best in context; best first. */
export function fuseReadings(alone: readonly LegHit[], inContext: readonly LegHit[], weight: number): LegHit[] {
  const scores = new Map<string, number>();
  const add = (hits: readonly LegHit[], share: number) => {
    const best = Math.max(0, ...hits.map((h) => h.score));
    if (best <= 0 || share <= 0) return;
    for (const h of hits) scores.set(h.memoryId, (scores.get(h.memoryId) ?? 0) + (share * h.score) / best);
  };
  add(alone, 1 - weight);
  add(inContext, weight);
  return [...scores].map(([memoryId, score]) => ({ memoryId, score })).sort((a, b) => b.score - a.score);
}

/** BM25 over the hypothetical questions (hints) generated for each memory; best hint per memory. */
export async function hintLeg(executor: Executor, options: KeywordLegOptions): Promise<LegHit[]> {
  if (!options.luceneQuery) return [];
  if (options.scope) return inScope(executor, options, 'hints');
  return hintMatches(executor, { query: scoped(options), limit: options.limit, includeDeleted: options.includeDeleted });
}

async function inScope(executor: Executor, options: KeywordLegOptions, reading: 'keyword' | 'inContext' | 'hints'): Promise<LegHit[]> {
  if (!options.scope || options.scope.length === 0) return [];
  return scopedKeywordMatches(executor, {
    ids: options.scope,
    query: scoped(options),
    limit: options.limit,
    bound: Math.max(options.limit, options.scopeBound ?? options.limit),
    reading,
  });
}
