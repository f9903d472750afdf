import type { Executor } from '../../db/index.js';
import { keywordMatches, scopedKeywordMatches } from '../../db/search/index.js';
import type { LegHit } from '../candidates.js';

export interface FullTextLegOptions {
  namespaceToken: string;
  /** An escaped Lucene query (see toLuceneQuery); null skips the leg. */
  luceneQuery: string | null;
  limit: number;
  includeDeleted: boolean;
  /** A filtered recall's scope (stages/scope.ts): only hits among these memories; null: the namespace. */
  scope?: readonly string[] | null;
  /** Full-text hits read to find the scope's. */
  scopeBound?: number;
}

/** `namespaceToken:<t>^0` confines the Lucene query to one namespace without adding to the score. */
export function namespacedQuery(options: FullTextLegOptions): string {
  return `namespaceToken:${options.namespaceToken}^0 AND (${options.luceneQuery})`;
}

/**
 * The keyword leg: BM25 over memory content (Neo4j full-text index, English analyzer). Explains
 * `keyword`. Failure rule (retrieve.ts): a failed leg counts as empty.
 */
export async function keywordLeg(executor: Executor, options: FullTextLegOptions): Promise<LegHit[]> {
  if (!options.luceneQuery) return [];
  if (options.scope) return inScope(executor, options, 'keyword');
  return keywordMatches(executor, { query: namespacedQuery(options), limit: options.limit, includeDeleted: options.includeDeleted });
}

/** The full-text hits of a filtered recall's scope (the scope confines the hits, not the Lucene query). */
export async function inScope(executor: Executor, options: FullTextLegOptions, reading: 'keyword' | 'hints'): Promise<LegHit[]> {
  if (!options.scope || options.scope.length === 0) return [];
  return scopedKeywordMatches(executor, {
    ids: options.scope,
    query: namespacedQuery(options),
    limit: options.limit,
    bound: Math.max(options.limit, options.scopeBound ?? options.limit),
    reading,
  });
}
