import type { Executor } from '../../db/index.js';
import { duplicateGroupsFromLinks } from '../collapse-duplicates.js';

/** Links read per recall at most: candidates are a few hundred, each with a handful of near-duplicates. */
export const MAX_DUPLICATE_LINKS = 2000;

// Open near-duplicate links (not yet decided by the deep path) between live, unsuperseded memories
// of the namespace, touching the candidates in either direction (a superseded memory asked for with
// includeSuperseded is history, not a duplicate to hide). One hop: a group is what links the candidates.
const DUPLICATE_LINKS = `
UNWIND $ids AS id
MATCH (a:Memory {id: id})-[d:DUPLICATE_OF]-(b:Memory)
WHERE a.namespace = $namespace AND b.namespace = $namespace AND d.reviewedAt IS NULL
  AND a.supersededAt IS NULL AND b.deletedAt IS NULL AND b.supersededAt IS NULL
RETURN a.id AS a, b.id AS b
LIMIT toInteger($limit)`;

/** Candidate id → duplicate-group id, for the candidates that have an open near-duplicate. */
export async function duplicateGroups(executor: Executor, namespace: string, ids: readonly string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const links = await executor.read<{ a: string; b: string }>('recall.duplicate-groups', DUPLICATE_LINKS, {
    ids: [...ids],
    namespace,
    limit: MAX_DUPLICATE_LINKS,
  });
  const groups = duplicateGroupsFromLinks(links);
  const wanted = new Set(ids);
  return new Map([...groups].filter(([id]) => wanted.has(id)));
}
