import type { Executor } from '../executor.js';

/**
 * Recall's keyword and hint legs: BM25 over the full-text indexes (English analyzer). The query is
 * an escaped Lucene query already confined to one namespace by `namespaceToken:<t>^0`, which
 * filters without adding to the score (recall/stages/keyword-leg.ts builds it).
 */

export const KEYWORD_LEG = `
CALL db.index.fulltext.queryNodes('memory_content', $query, {limit: toInteger($limit)}) YIELD node, score
WHERE $includeDeleted OR node.deletedAt IS NULL
RETURN node.id AS memoryId, score`;

export const HINT_LEG = `
CALL db.index.fulltext.queryNodes('hint_text', $query, {limit: toInteger($limit)}) YIELD node, score
MATCH (node)-[:HINT_OF]->(m:Memory)
WHERE $includeDeleted OR m.deletedAt IS NULL
RETURN m.id AS memoryId, max(score) AS score`;

export interface FullTextSearch {
  /** A Lucene query confined to the namespace. */
  query: string;
  limit: number;
  includeDeleted: boolean;
}

export type ScoredMemory = {
  memoryId: string;
  score: number;
};

/** BM25 over memory content. */
export async function keywordMatches(executor: Executor, search: FullTextSearch): Promise<ScoredMemory[]> {
  return executor.read<ScoredMemory>('recall.keyword', KEYWORD_LEG, {
    query: search.query,
    limit: search.limit,
    includeDeleted: search.includeDeleted,
  });
}

/** BM25 over the hypothetical questions (hints) of each memory; best hint per memory. */
export async function hintMatches(executor: Executor, search: FullTextSearch): Promise<ScoredMemory[]> {
  return executor.read<ScoredMemory>('recall.hints', HINT_LEG, {
    query: search.query,
    limit: search.limit,
    includeDeleted: search.includeDeleted,
  });
}
