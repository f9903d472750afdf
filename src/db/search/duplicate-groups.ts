import type { Executor } from '../executor.js';

// Open near-duplicate links (not yet decided by the deep path) between live, unsuperseded memories
// of the namespace, touching the candidates in either direction (a superseded memory asked for with
// includeSuperseded is history, not a duplicate to hide). One hop: a group is what links the candidates.
export const DUPLICATE_LINKS = `
UNWIND $ids AS id
MATCH (a:Memory {id: id})-[d:DUPLICATE_OF]-(b:Memory)
WHERE a.namespace = $namespace AND b.namespace = $namespace AND d.reviewedAt IS NULL
  AND a.supersededAt IS NULL AND b.deletedAt IS NULL AND b.supersededAt IS NULL
RETURN a.id AS a, b.id AS b
LIMIT toInteger($limit)`;

/** At most `limit` open near-duplicate links touching the ids. */
export async function openDuplicateLinks(
  executor: Executor,
  namespace: string,
  ids: readonly string[],
  limit: number,
): Promise<Array<{ a: string; b: string }>> {
  return executor.read<{ a: string; b: string }>('recall.duplicate-groups', DUPLICATE_LINKS, { ids: [...ids], namespace, limit });
}
