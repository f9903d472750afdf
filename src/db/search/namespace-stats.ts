import type { Executor } from '../executor.js';

/**
 * What ranking may know about one namespace, read cheaply and bounded: how many memories it holds
 * (counted by index seek up to `$cap`: past that the store is "large" and the exact count changes
 * nothing) and the mean length of its memories' content (over the first `$sample` by creation, for
 * BM25's length normalization); and, for the keyword re-scoring, how many of its memories hold
 * each query term (per term one full-text query confined to the namespace, its hits counted up to
 * `$cap`). Nothing here reads another namespace's data (recall/stages/store-size.ts,
 * recall/stages/keyword-rescore.ts).
 */

export const NAMESPACE_SIZE = `
CALL () {
  MATCH (m:Memory)
  USING INDEX m:Memory(namespace, createdAt)
  WHERE m.namespace = $namespace AND m.createdAt IS NOT NULL
  WITH m LIMIT toInteger($cap)
  RETURN count(m) AS memories
}
CALL () {
  MATCH (m:Memory)
  USING INDEX m:Memory(namespace, createdAt)
  WHERE m.namespace = $namespace AND m.createdAt IS NOT NULL
  WITH m LIMIT toInteger($sample)
  RETURN avg(size(coalesce(m.content, ''))) AS meanChars
}
RETURN memories, meanChars`;

// Each query is a Lucene query already confined to the namespace (`namespaceToken:<t>^0 AND (…)`).
export const TERM_DOCUMENT_FREQUENCIES = `
UNWIND range(0, size($queries) - 1) AS i
CALL (i) {
  CALL db.index.fulltext.queryNodes('memory_content', $queries[i], {limit: toInteger($cap)}) YIELD node
  RETURN count(node) AS df
}
RETURN i, df`;

export interface NamespaceSize {
  /** Memories of the namespace (tombstones included), at most the cap. */
  memories: number;
  /** Mean content length in characters over the sample; 0 for an empty namespace. */
  meanChars: number;
}

export async function namespaceSize(
  executor: Executor,
  namespace: string,
  bounds: { cap: number; sample: number },
): Promise<NamespaceSize> {
  const [row] = await executor.read<{ memories: number; meanChars: number | null }>('recall.namespace-size', NAMESPACE_SIZE, {
    namespace,
    cap: bounds.cap,
    sample: bounds.sample,
  });
  return { memories: Number(row?.memories ?? 0), meanChars: Number(row?.meanChars ?? 0) };
}

/** For each namespaced Lucene query (one term each), how many memories match it, at most `cap`. */
export async function termDocumentFrequencies(executor: Executor, queries: readonly string[], cap: number): Promise<number[]> {
  if (queries.length === 0) return [];
  const rows = await executor.read<{ i: number; df: number }>('recall.term-df', TERM_DOCUMENT_FREQUENCIES, { queries: [...queries], cap });
  const out = queries.map(() => 0);
  for (const row of rows) out[Number(row.i)] = Number(row.df);
  return out;
}
