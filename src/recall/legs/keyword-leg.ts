import type { Executor } from '../../db/index.js';
import { hintMatches, keywordMatches } from '../../db/index.js';
import type { LegHit } from '../candidates.js';

export interface KeywordLegOptions {
  namespaceToken: string;
  /** An escaped Lucene query (see toLuceneQuery); null skips the leg. */
  luceneQuery: string | null;
  limit: number;
  includeDeleted: boolean;
}

// `namespaceToken:<t>^0` confines the Lucene query to one namespace without adding to the score.
function scoped(options: KeywordLegOptions): string {
  return `namespaceToken:${options.namespaceToken}^0 AND (${options.luceneQuery})`;
}

/** BM25 over memory content (Neo4j full-text index, English analyzer). */
export async function keywordLeg(executor: Executor, options: KeywordLegOptions): Promise<LegHit[]> {
  if (!options.luceneQuery) return [];
  return keywordMatches(executor, { query: scoped(options), limit: options.limit, includeDeleted: options.includeDeleted });
}

/** BM25 over the hypothetical questions (hints) generated for each memory; best hint per memory. */
export async function hintLeg(executor: Executor, options: KeywordLegOptions): Promise<LegHit[]> {
  if (!options.luceneQuery) return [];
  return hintMatches(executor, { query: scoped(options), limit: options.limit, includeDeleted: options.includeDeleted });
}
