import type { Executor } from '../db/index.js';
import { candidateKeywordHits, candidateMemories, cosineFromIndexScore } from '../db/index.js';
import { nearestInNamespace } from '../db/search/index.js';
import { namespaceToken } from '../text/index.js';
import { toLuceneQuery } from '../text/index.js';
import type { Candidate } from './extraction-types.js';

export const DECISION_CANDIDATES = 5;
/** Weight of the vector leg when both legs scored a memory (the fusion alpha). */
export const VECTOR_ALPHA = 0.7;
export const MIN_CANDIDATE_SCORE = 0.3;
/** Vector candidates per fact, exact per namespace (src/db/search/vector.ts). */
const VECTOR_LIMIT = 20;
const KEYWORD_LIMIT = 20;

export interface CandidateQuery {
  namespace: string;
  text: string;
  /** Memories that must not be candidates (the fact's own source). */
  exclude: readonly string[];
  limit?: number;
}

/**
 * The top memories of the namespace for one fact, by the same hybrid idea as recall: the
 * full-text index (BM25, confined to the namespace by its token inside Lucene) and the vector
 * index, merged by id and weighted. The fact is embedded by the caller, outside any transaction.
 */
export async function findCandidates(executor: Executor, vector: readonly number[], query: CandidateQuery): Promise<Candidate[]> {
  const terms = toLuceneQuery(query.text);
  const exclude = [...query.exclude];
  const [keyword, semantic] = await Promise.all([
    terms
      ? candidateKeywordHits(executor, {
          query: `namespaceToken:${namespaceToken(query.namespace)}^0 AND (${terms})`,
          limit: KEYWORD_LIMIT,
          namespace: query.namespace,
          exclude,
        })
      : Promise.resolve([]),
    nearestInNamespace(executor, [vector], { namespace: query.namespace, limit: VECTOR_LIMIT, exclude }).then(({ hits }) =>
      (hits[0] ?? []).map((h) => ({ id: h.memoryId, score: h.score })),
    ),
  ]);
  const ranked = combine(keyword, semantic).slice(0, query.limit ?? DECISION_CANDIDATES);
  if (ranked.length === 0) return [];
  const rows = await candidateMemories(
    executor,
    ranked.map((r) => r.id),
  );
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ranked.flatMap((r) => {
    const row = byId.get(r.id);
    return row ? [{ id: r.id, type: row.type ?? 'fact', content: row.content ?? '', score: r.score }] : [];
  });
}

/** BM25 → s / (1 + s) and the index's (1 + cos) / 2 → cos, then alpha-weighted when both exist. */
export function combine(
  keyword: ReadonlyArray<{ id: string; score: number }>,
  vector: ReadonlyArray<{ id: string; score: number }>,
): Array<{ id: string; score: number }> {
  const bm25 = new Map(keyword.map((k) => [k.id, k.score / (1 + Math.abs(k.score))]));
  const cosine = new Map(vector.map((v) => [v.id, cosineFromIndexScore(v.score)]));
  const ids = new Set([...bm25.keys(), ...cosine.keys()]);
  return [...ids]
    .map((id) => {
      const v = cosine.get(id);
      const k = bm25.get(id);
      const score = v !== undefined && k !== undefined ? VECTOR_ALPHA * v + (1 - VECTOR_ALPHA) * k : (v ?? k ?? 0);
      return { id, score };
    })
    .filter((c) => c.score >= MIN_CANDIDATE_SCORE)
    .sort((a, b) => b.score - a.score || a.id.localeCompare(b.id));
}
