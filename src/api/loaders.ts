import DataLoader from 'dataloader';
import type { Principal } from '../auth.js';
import type { Executor } from '../db/index.js';
import {
  type Keyed,
  aspectsByEntityIds,
  aspectsByIds,
  attributesByAspectIds,
  attributesByIds,
  attributesByMemoryIds,
  entitiesByIds,
  entitiesByMemoryIds,
  historyByMemoryIds,
  memoriesByEntityIds,
  relationCountsByEntityIds,
  relationsByEntityIds,
} from '../db/index.js';
import { chunksByMemoryIds, memoriesByIds } from '../db/index.js';
import type { AspectRecord, AttributeRecord, ChunkRecord, EntityRecord, HistoryRecord, MemoryRecord, RelationRecord } from '../db/index.js';

const MEMORIES_PER_ENTITY = 10;

/** Groups keyed rows into one list per key, in key order (DataLoader's contract). */
function groupByKey<T>(keys: readonly string[], rows: Keyed<T>[]): T[][] {
  const groups = new Map<string, T[]>(keys.map((k) => [k, []]));
  for (const { key, row } of rows) groups.get(key)?.push(row);
  return keys.map((k) => groups.get(k)!);
}

function one<T>(keys: readonly string[], rows: Keyed<T>[]): (T | null)[] {
  return groupByKey(keys, rows).map((list) => list[0] ?? null);
}

/**
 * Built per request so caching never crosses callers. Each loader batches with `IN $ids`-style
 * UNWIND queries; rows outside the caller's namespaces are dropped where a node is fetched by id,
 * and the keyed walks (aspects, relations, mentions…) stay inside their start node's namespace.
 */
export function createLoaders(executor: Executor, principal: Principal) {
  const readable = principal.readableNamespaces;
  const visible = <T extends { namespace?: string }>(row: T | null) =>
    row && (readable === null || (row.namespace !== undefined && readable.includes(row.namespace))) ? row : null;

  return {
    memoryById: new DataLoader<string, MemoryRecord | null>(async (ids) => {
      const rows = await memoriesByIds(executor, ids, readable);
      const byId = new Map(rows.map((m) => [m.id, m]));
      return ids.map((id) => byId.get(id) ?? null);
    }),
    chunksByMemory: new DataLoader<string, ChunkRecord[]>(async (ids) => {
      const rows = await chunksByMemoryIds(executor, ids);
      return groupByKey(
        ids,
        rows.map((row) => ({ key: row.memoryId, row })),
      );
    }),
    entityById: new DataLoader<string, EntityRecord | null>(async (ids) => one(ids, await entitiesByIds(executor, ids)).map(visible)),
    entitiesByMemory: new DataLoader<string, EntityRecord[]>(async (ids) => groupByKey(ids, await entitiesByMemoryIds(executor, ids))),
    attributesByMemory: new DataLoader<string, AttributeRecord[]>(async (ids) =>
      groupByKey(ids, await attributesByMemoryIds(executor, ids)),
    ),
    historyByMemory: new DataLoader<string, HistoryRecord[]>(async (ids) => groupByKey(ids, await historyByMemoryIds(executor, ids))),
    aspectsByEntity: new DataLoader<string, AspectRecord[]>(async (ids) => groupByKey(ids, await aspectsByEntityIds(executor, ids))),
    aspectById: new DataLoader<string, AspectRecord | null>(async (ids) => one(ids, await aspectsByIds(executor, ids)).map(visible)),
    attributesByAspect: new DataLoader<string, AttributeRecord[]>(async (ids) =>
      groupByKey(ids, await attributesByAspectIds(executor, ids)),
    ),
    attributeById: new DataLoader<string, AttributeRecord | null>(async (ids) =>
      one(ids, await attributesByIds(executor, ids)).map(visible),
    ),
    relationsByEntity: new DataLoader<string, RelationRecord[]>(async (ids) => groupByKey(ids, await relationsByEntityIds(executor, ids))),
    relationCountByEntity: new DataLoader<string, number>(async (ids) => {
      const counts = new Map((await relationCountsByEntityIds(executor, ids)).map(({ key, row }) => [key, Number(row)]));
      return ids.map((id) => counts.get(id) ?? 0);
    }),
    memoriesByEntity: new DataLoader<string, MemoryRecord[]>(async (ids) =>
      groupByKey(ids, await memoriesByEntityIds(executor, ids, MEMORIES_PER_ENTITY)),
    ),
  };
}

export type Loaders = ReturnType<typeof createLoaders>;
