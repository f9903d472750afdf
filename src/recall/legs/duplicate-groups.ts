import type { Executor } from '../../db/index.js';
import { openDuplicateLinks } from '../../db/index.js';
import { duplicateGroupsFromLinks } from '../collapse-duplicates.js';

/** Links read per recall at most: candidates are a few hundred, each with a handful of near-duplicates. */
export const MAX_DUPLICATE_LINKS = 2000;

/**
 * Candidate id → duplicate-group id, for the candidates that have an open near-duplicate
 * (db/search/duplicate-groups.ts reads the links; one hop: a group is what links the candidates).
 */
export async function duplicateGroups(executor: Executor, namespace: string, ids: readonly string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const links = await openDuplicateLinks(executor, namespace, ids, MAX_DUPLICATE_LINKS);
  const groups = duplicateGroupsFromLinks(links);
  const wanted = new Set(ids);
  return new Map([...groups].filter(([id]) => wanted.has(id)));
}
