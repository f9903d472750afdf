import type { Executor } from '../../db/index.js';
import { hintMatches, keywordMatches, scopedKeywordMatches } from '../../db/index.js';
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

// `namespaceToken:<t>^0` confines the Lucene query to one namespace without adding to the score.
function scoped(options: KeywordLegOptions): string {
  return `namespaceToken:${options.namespaceToken}^0 AND (${options.luceneQuery})`;
}

/** BM25 over memory content (Neo4j full-text index, English analyzer). */
export async function keywordLeg(executor: Executor, options: KeywordLegOptions): Promise<LegHit[]> {
  if (!options.luceneQuery) return [];
  if (options.scope) return inScope(executor, options, false);
  return keywordMatches(executor, { query: scoped(options), limit: options.limit, includeDeleted: options.includeDeleted });
}

/** BM25 over the hypothetical questions (hints) generated for each memory; best hint per memory. */
export async function hintLeg(executor: Executor, options: KeywordLegOptions): Promise<LegHit[]> {
  if (!options.luceneQuery) return [];
  if (options.scope) return inScope(executor, options, true);
  return hintMatches(executor, { query: scoped(options), limit: options.limit, includeDeleted: options.includeDeleted });
}

async function inScope(executor: Executor, options: KeywordLegOptions, hints: boolean): Promise<LegHit[]> {
  if (!options.scope || options.scope.length === 0) return [];
  return scopedKeywordMatches(executor, {
    ids: options.scope,
    query: scoped(options),
    limit: options.limit,
    bound: Math.max(options.limit, options.scopeBound ?? options.limit),
    hints,
  });
}
