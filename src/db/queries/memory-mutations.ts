import { randomUUID } from 'node:crypto';
import { derivedId } from '../ids.js';
import type { Executor, TxRunner } from '../executor.js';
import { cleanText } from '../../text/index.js';
import { MEMORY_RETURN, type MemoryRecord } from '../records.js';
import { MEMORY_EVENT, recordEvents } from '../history.js';
import { retireDerived } from './retire-derived.js';

/**
 * forget, pin and unpin. Each matches the memory by id AND namespace (the caller has checked
 * the namespace against its key) and audits a real change in the same transaction; repeating
 * one is a no-op that returns the memory as it is. Ids are made before the transaction, so the
 * driver re-running it after a lost COMMIT reply records nothing twice.
 */

// Dropping dedupKey frees the content: remembering it again stores a new memory.
export const FORGET = `
MATCH (m:Memory {id: $id, namespace: $namespace})
WITH m, m.deletedAt IS NULL AS live
SET m.deletedAt = coalesce(m.deletedAt, $now),
    m.updatedAt = CASE WHEN live THEN $now ELSE m.updatedAt END
REMOVE m.dedupKey
RETURN live AS changed`;

export const READ_BACK = `
MATCH (m:Memory {id: $id})
RETURN ${MEMORY_RETURN('m')} AS memory`;

export const SET_PINNED = `
MATCH (m:Memory {id: $id, namespace: $namespace})
WITH m, coalesce(m.pinned, false) <> $pinned AS changed
SET m.pinned = $pinned
RETURN changed, ${MEMORY_RETURN('m')} AS memory`;

export const FORGOTTEN_SOURCE_REASON = 'the memory it was derived from was forgotten';

export interface MemoryRef {
  id: string;
  namespace: string;
  actor: string;
}

/** A forget reason as stored: well-formed (src/text), trimmed, null when blank. */
export function forgetReason(reason: string | null | undefined): string | null {
  return reason == null ? null : cleanText(reason).trim() || null;
}

/**
 * Soft delete, with everything derived from the memory retired in the same transaction
 * (see retire-derived.ts); null when no such memory is in that namespace.
 */
export async function forgetMemory(executor: Executor, ref: MemoryRef, reason: string | null): Promise<MemoryRecord | null> {
  const now = new Date().toISOString();
  const eventId = randomUUID();
  return executor.writeTx('memory.forget', async (tx) => {
    if ((await forgetInTx(tx, ref, reason, now, eventId)) === null) return null;
    const [back] = await tx.run<{ memory: MemoryRecord }>(READ_BACK, { id: ref.id });
    return back?.memory ?? null;
  });
}

/**
 * The forget statement, its retirements and its audit event inside the caller's transaction
 * (a reverted proposal forgets its fact memory the same way). `eventId` is made before the
 * transaction. Null when no such memory is in that namespace, else whether it was live.
 */
export async function forgetInTx(
  tx: TxRunner,
  ref: MemoryRef,
  reason: string | null,
  now: string,
  eventId: string,
): Promise<boolean | null> {
  const [row] = await tx.run<{ changed: boolean }>(FORGET, { id: ref.id, namespace: ref.namespace, now });
  if (!row) return null;
  if (row.changed) {
    const retired = await retireDerived(tx, {
      memoryId: ref.id,
      reason: FORGOTTEN_SOURCE_REASON,
      actor: ref.actor,
      now,
      eventId: (factId) => derivedId(eventId, factId),
    });
    await recordEvents(
      tx,
      [
        {
          id: eventId,
          event: MEMORY_EVENT.forgotten,
          about: { memoryId: ref.id },
          actor: ref.actor,
          outcome: MEMORY_EVENT.forgotten,
          reason,
          details: { forgottenFacts: retired.forgottenFacts.length, retiredAttributes: retired.retiredAttributes.length },
        },
      ],
      now,
    );
  }
  return row.changed;
}

export async function setPinned(executor: Executor, ref: MemoryRef, pinned: boolean): Promise<MemoryRecord | null> {
  const now = new Date().toISOString();
  const eventId = randomUUID();
  return executor.writeTx(pinned ? 'memory.pin' : 'memory.unpin', async (tx) => {
    const [row] = await tx.run<{ changed: boolean; memory: MemoryRecord }>(SET_PINNED, { id: ref.id, namespace: ref.namespace, pinned });
    const event = pinned ? MEMORY_EVENT.pinned : MEMORY_EVENT.unpinned;
    if (row?.changed) await recordEvents(tx, [{ id: eventId, event, about: { memoryId: ref.id }, actor: ref.actor, outcome: event }], now);
    return row?.memory ?? null;
  });
}
