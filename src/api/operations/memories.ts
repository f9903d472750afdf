import type { MemoryRecord } from '../../db/index.js';
import { LimitExceededError } from '../../errors.js';
import type { Caller } from '../caller.js';
import { pageSize } from '../limits.js';

/** One memory by id; null when missing or outside the caller's namespaces (forgotten ones included). */
export function memory(caller: Caller, id: string): Promise<MemoryRecord | null> {
  return caller.loaders.memoryById.load(id);
}

/** Full records by id, in the order asked (null where not found); more than a page of ids is LIMIT_EXCEEDED. */
export async function memories(caller: Caller, ids: readonly string[]): Promise<Array<MemoryRecord | null>> {
  const max = caller.limits.maxPageSize;
  if (ids.length > max)
    throw new LimitExceededError(`at most ${max} ids per call (MAX_PAGE_SIZE); got ${ids.length}`, { field: 'ids', max });
  const rows = await caller.loaders.memoryById.loadMany(ids);
  // The loader fails a key only when its whole batch failed (the database): that is the call's error, not a missing id.
  const failed = rows.find((r) => r instanceof Error);
  if (failed) throw failed;
  return rows as Array<MemoryRecord | null>;
}

type MemoryPage = Caller['services']['disclosure']['page'];
type MemoryListFilters = Parameters<MemoryPage>[0]['filters'];

/** A namespace's memories, newest first, a page at a time. */
export async function memoriesPageOf(
  caller: Caller,
  request: { namespace?: string | null; filters: MemoryListFilters; first?: number | null; after?: string | null },
): ReturnType<MemoryPage> {
  const page = await caller.services.disclosure.page({
    namespace: caller.namespaceFor(request.namespace, 'read'),
    first: pageSize(request.first, caller.limits.maxPageSize),
    after: request.after,
    filters: request.filters,
  });
  for (const { node } of page.edges) caller.loaders.memoryById.prime(node.id, node);
  return page;
}
