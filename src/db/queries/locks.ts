import type { TxRunner } from '../executor.js';

/**
 * Takes the write lock on memories before a statement reads their state (Neo4j reads committed
 * data without locking: a check made before the lock can be outdated by the time the transaction
 * commits). The marker is removed again in the same transaction by `RELEASE_MARKER`.
 */
export const LOCK_MEMORIES = `
UNWIND $ids AS id
MATCH (m:Memory {id: id})
SET m._lock = true`;

/** Append to a statement that has matched `m` after `lockMemories`. */
export const RELEASE_MARKER = (m: string) => `REMOVE ${m}._lock`;

export async function lockMemories(tx: TxRunner, ids: readonly string[]): Promise<void> {
  // One order for every transaction, so two of them never wait on each other in a cycle.
  const sorted = [...new Set(ids)].sort();
  if (sorted.length) await tx.run(LOCK_MEMORIES, { ids: sorted });
}
