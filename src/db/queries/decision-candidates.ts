import type { Executor } from '../executor.js';

/**
 * The deep path's decision candidates for one fact: the full-text leg (BM25, confined to the
 * namespace by its token inside Lucene, then by property) and the candidates' text by id.
 */

export const CANDIDATE_KEYWORD_HITS = `
CALL db.index.fulltext.queryNodes('memory_content', $query, {limit: toInteger($limit)}) YIELD node, score
WHERE node.namespace = $namespace AND node.deletedAt IS NULL AND NOT node.id IN $exclude
RETURN node.id AS id, score`;

export const CANDIDATE_MEMORIES = `
UNWIND $ids AS id
MATCH (m:Memory {id: id})
RETURN m.id AS id, m.type AS type, m.content AS content`;

export interface CandidateKeywordQuery {
  /** A Lucene query (the namespace token clause included). */
  query: string;
  limit: number;
  namespace: string;
  exclude: string[];
}

export async function candidateKeywordHits(executor: Executor, q: CandidateKeywordQuery): Promise<Array<{ id: string; score: number }>> {
  return executor.read<{ id: string; score: number }>('extraction.candidates.keyword', CANDIDATE_KEYWORD_HITS, {
    query: q.query,
    limit: q.limit,
    namespace: q.namespace,
    exclude: q.exclude,
  });
}

export async function candidateMemories(executor: Executor, ids: string[]): Promise<Array<{ id: string; type: string; content: string }>> {
  return executor.read<{ id: string; type: string; content: string }>('extraction.candidates.load', CANDIDATE_MEMORIES, { ids });
}
