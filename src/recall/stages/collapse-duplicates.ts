import type { Executor } from '../../db/index.js';
import { openDuplicateLinks } from '../../db/search/index.js';
import type { RankedCandidate } from '../types.js';
import { duplicatesReadWith } from './hydrate.js';
import type { RankedStage } from './stage.js';

/** Links read per recall at most: candidates are a few hundred, each with a handful of near-duplicates. */
export const MAX_DUPLICATE_LINKS = 2000;

/**
 * The near-duplicate collapse stage: open near-duplicate groups (linked DUPLICATE_OF by the write
 * path, not yet decided by the deep path) show only their best-ranked member; constraints and
 * pinned memories are never hidden. The links are read with the candidates by hydration and
 * with the context stage's newcomers (hydrate.ts), or, when they were not, here (db/search/duplicate-groups.ts). No settings:
 * it always runs. Failure rule: keep every result.
 */
export const collapseStage: RankedStage<null> = {
  name: 'duplicates',
  onFailure: 'keep-input',
  enabled: (_settings, ranked) => ranked.length >= 2,
  async run(ranked, run) {
    const ids = ranked.filter((r) => !r.candidate.isConstraint && !r.candidate.pinned).map((r) => r.candidate.memoryId);
    if (ids.length < 2) return ranked;
    const read = duplicatesReadWith(run.memories, ids);
    const groups = read ? groupsOf(read, ids) : await duplicateGroups(run.executor, run.namespace, ids);
    return groups.size === 0 ? ranked : collapseDuplicates<RankedCandidate>(ranked, groups, (r) => r.candidate.memoryId).items;
  },
};

/**
 * Candidate id → duplicate-group id, for the candidates that have an open near-duplicate
 * (db/search/duplicate-groups.ts reads the links; one hop: a group is what links the candidates).
 */
export async function duplicateGroups(executor: Executor, namespace: string, ids: readonly string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  return groupsOf(await openDuplicateLinks(executor, namespace, ids, MAX_DUPLICATE_LINKS), ids);
}

function groupsOf(links: ReadonlyArray<{ a: string; b: string }>, ids: readonly string[]): Map<string, string> {
  const groups = duplicateGroupsFromLinks(links);
  const wanted = new Set(ids);
  return new Map([...groups].filter(([id]) => wanted.has(id)));
}

/**
 * Near-duplicates (0.92–0.98, linked DUPLICATE_OF by the write path and not yet resolved by the
 * deep path) collapse into the best-ranked member of their group: recall without an LLM shows one
 * of "Alice prefers green tea" and "Alice prefers green tea, no sugar", not both. Pure; order kept.
 */
export interface CollapseResult<T> {
  items: T[];
  /** Kept memory id → the ids of the group members it stands for (only groups that collapsed). */
  collapsed: Map<string, string[]>;
}

export function collapseDuplicates<T>(
  ranked: readonly T[],
  groupOf: ReadonlyMap<string, string>,
  idOf: (item: T) => string,
): CollapseResult<T> {
  const keptByGroup = new Map<string, string>();
  const collapsed = new Map<string, string[]>();
  const items: T[] = [];
  for (const item of ranked) {
    const id = idOf(item);
    const group = groupOf.get(id);
    if (group === undefined) {
      items.push(item);
      continue;
    }
    const kept = keptByGroup.get(group);
    if (kept === undefined) {
      keptByGroup.set(group, id);
      items.push(item);
    } else {
      collapsed.set(kept, [...(collapsed.get(kept) ?? []), id]);
    }
  }
  return { items, collapsed };
}

/** Groups from DUPLICATE_OF pairs (connected components): each id → the smallest id of its group. */
export function duplicateGroupsFromLinks(links: ReadonlyArray<{ a: string; b: string }>): Map<string, string> {
  const parent = new Map<string, string>();
  const find = (x: string): string => {
    let root = x;
    while (parent.get(root) !== undefined && parent.get(root) !== root) root = parent.get(root)!;
    let node = x;
    while (node !== root) {
      const next = parent.get(node)!;
      parent.set(node, root);
      node = next;
    }
    return root;
  };
  for (const { a, b } of links) {
    if (!parent.has(a)) parent.set(a, a);
    if (!parent.has(b)) parent.set(b, b);
    const ra = find(a);
    const rb = find(b);
    if (ra !== rb) parent.set(ra < rb ? rb : ra, ra < rb ? ra : rb);
  }
  return new Map([...parent.keys()].map((id) => [id, find(id)]));
}
