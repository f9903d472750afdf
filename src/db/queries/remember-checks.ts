import { ConflictError } from '../../errors.js';
import type { TxRunner } from '../executor.js';
import { MEMORY_RETURN, type MemoryRecord } from '../records.js';
import { lockMemories, RELEASE_MARKER } from './locks.js';

/**
 * The checks `remember` repeats inside its write transaction, on locked memories, for the
 * decisions it made before it: a duplicate's target still holds the content; the deep path's
 * source memory is still the version it read.
 */

export interface DuplicateTarget {
  /** The batch index of the duplicate. */
  ref: number;
  id: string;
  /** The content the target held when the duplicate was decided. */
  contentHash: string;
}

// A sighting counts once per write (`$writeId`): a re-run of the transaction does not count again.
export const TOUCH_DUPLICATES = `
UNWIND $targets AS t
MATCH (m:Memory {id: t.id})
${RELEASE_MARKER('m')}
WITH t, m
WHERE m.deletedAt IS NULL AND m.contentHash = t.contentHash
SET m.accessCount = coalesce(m.accessCount, 0) + CASE WHEN coalesce(m.lastSeenWrite, '') = $writeId THEN 0 ELSE 1 END,
    m.lastSeenAt = $now, m.lastSeenWrite = $writeId
RETURN t.ref AS ref, ${MEMORY_RETURN('m')} AS memory`;

/** Confirms and touches the duplicates whose target still holds their content; the others are absent. */
export async function touchDuplicates(
  tx: TxRunner,
  targets: readonly DuplicateTarget[],
  context: { now: string; writeId: string },
): Promise<Array<{ ref: number; memory: MemoryRecord }>> {
  if (targets.length === 0) return [];
  await lockMemories(
    tx,
    targets.map((t) => t.id),
  );
  return tx.run<{ ref: number; memory: MemoryRecord }>(TOUCH_DUPLICATES, { targets, ...context });
}

export const SOURCE_STATE = `
MATCH (m:Memory {id: $id})
${RELEASE_MARKER('m')}
RETURN m.deletedAt IS NULL AND m.contentHash = $contentHash AS unchanged`;

/** Throws ConflictError when the memory was forgotten, deleted or rewritten since it was read. */
export async function requireSourceUnchanged(tx: TxRunner, source: { memoryId: string; contentHash: string }): Promise<void> {
  await lockMemories(tx, [source.memoryId]);
  const [row] = await tx.run<{ unchanged: boolean }>(SOURCE_STATE, { id: source.memoryId, contentHash: source.contentHash });
  if (!row?.unchanged) throw new ConflictError(`memory ${source.memoryId} changed while it was being processed`, { id: source.memoryId });
}

export const LINK_DERIVED = `
MATCH (src:Memory {id: $sourceId})
UNWIND $ids AS id
MATCH (fact:Memory {id: id})
MERGE (fact)-[r:EXTRACTED_FROM]->(src)
  ON CREATE SET r.at = $now`;

/** What the deep path stored from a memory is linked to it in the same transaction, so `forget` finds it. */
export async function linkDerived(tx: TxRunner, sourceId: string, ids: readonly string[], now: string): Promise<void> {
  if (ids.length) await tx.run(LINK_DERIVED, { sourceId, ids, now });
}
