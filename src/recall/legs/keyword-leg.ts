import type { Executor } from '../../db/index.js';
import type { LegHit } from '../candidates.js';

// `namespaceToken:<t>^0` confines the Lucene query to one namespace without adding to the score.
const KEYWORD_LEG = `
CALL db.index.fulltext.queryNodes('memory_content', $query, {limit: toInteger($limit)}) YIELD node, score
WHERE $includeDeleted OR node.deletedAt IS NULL
RETURN node.id AS memoryId, score`;

const HINT_LEG = `
CALL db.index.fulltext.queryNodes('hint_text', $query, {limit: toInteger($limit)}) YIELD node, score
MATCH (node)-[:HINT_OF]->(m:Memory)
WHERE $includeDeleted OR m.deletedAt IS NULL
RETURN m.id AS memoryId, max(score) AS score`;

export interface KeywordLegOptions {
  namespaceToken: string;
  /** An escaped Lucene query (see toLuceneQuery); null skips the leg. */
  luceneQuery: string | null;
  limit: number;
  includeDeleted: boolean;
}

function scoped(options: KeywordLegOptions): string {
  return `namespaceToken:${options.namespaceToken}^0 AND (${options.luceneQuery})`;
}

/** BM25 over memory content (Neo4j full-text index, English analyzer). */
export async function keywordLeg(executor: Executor, options: KeywordLegOptions): Promise<LegHit[]> {
  if (!options.luceneQuery) return [];
  return executor.read<{ memoryId: string; score: number }>('recall.keyword', KEYWORD_LEG, {
    query: scoped(options),
    limit: options.limit,
    includeDeleted: options.includeDeleted,
  });
}

/** BM25 over the hypothetical questions (hints) generated for each memory; best hint per memory. */
export async function hintLeg(executor: Executor, options: KeywordLegOptions): Promise<LegHit[]> {
  if (!options.luceneQuery) return [];
  return executor.read<{ memoryId: string; score: number }>('recall.hints', HINT_LEG, {
    query: scoped(options),
    limit: options.limit,
    includeDeleted: options.includeDeleted,
  });
}
