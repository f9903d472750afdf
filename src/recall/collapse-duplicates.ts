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
