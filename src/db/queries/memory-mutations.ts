import type { Executor } from '../executor.js';
import { MEMORY_RETURN, type MemoryRecord } from '../records.js';
import { MEMORY_EVENT, recordMemoryEvent } from './history.js';

/**
 * forget, pin and unpin. Each matches the memory by id AND namespace (the caller has checked
 * the namespace against its key) and audits a real change in the same transaction; repeating
 * one is a no-op that returns the memory as it is.
 */

// Dropping dedupKey frees the content: remembering it again stores a new memory.
const FORGET = `
MATCH (m:Memory {id: $id, namespace: $namespace})
WITH m, m.deletedAt IS NULL AS live
SET m.deletedAt = coalesce(m.deletedAt, $now),
    m.updatedAt = CASE WHEN live THEN $now ELSE m.updatedAt END
REMOVE m.dedupKey
RETURN live AS changed, ${MEMORY_RETURN('m')} AS memory`;

const SET_PINNED = `
MATCH (m:Memory {id: $id, namespace: $namespace})
WITH m, coalesce(m.pinned, false) <> $pinned AS changed
SET m.pinned = $pinned
RETURN changed, ${MEMORY_RETURN('m')} AS memory`;

export interface MemoryRef {
  id: string;
  namespace: string;
  actor: string;
}

/** Soft delete; null when no such memory is in that namespace. */
export async function forgetMemory(executor: Executor, ref: MemoryRef, reason: string | null): Promise<MemoryRecord | null> {
  const now = new Date().toISOString();
  return executor.writeTx('memory.forget', async (tx) => {
    const [row] = await tx.run<{ changed: boolean; memory: MemoryRecord }>(FORGET, { id: ref.id, namespace: ref.namespace, now });
    if (row?.changed) await recordMemoryEvent(tx, { memoryId: ref.id, event: MEMORY_EVENT.forgotten, actor: ref.actor, reason }, now);
    return row?.memory ?? null;
  });
}

export async function setPinned(executor: Executor, ref: MemoryRef, pinned: boolean): Promise<MemoryRecord | null> {
  const now = new Date().toISOString();
  return executor.writeTx(pinned ? 'memory.pin' : 'memory.unpin', async (tx) => {
    const [row] = await tx.run<{ changed: boolean; memory: MemoryRecord }>(SET_PINNED, { id: ref.id, namespace: ref.namespace, pinned });
    if (row?.changed) await recordMemoryEvent(tx, { memoryId: ref.id, event: pinned ? MEMORY_EVENT.pinned : MEMORY_EVENT.unpinned, actor: ref.actor }, now);
    return row?.memory ?? null;
  });
}
