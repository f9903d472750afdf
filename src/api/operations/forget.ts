import type { MemoryRecord } from '../../db/index.js';
import type { Caller } from '../caller.js';
import { memoryForWrite, refreshMemory } from '../guards.js';
import { checkLength, MAX_REASON_CHARS } from '../limits.js';

/**
 * Soft-deletes a memory (recorded in its history); forgetting a forgotten one returns it unchanged.
 * A memory outside the caller's namespaces is NOT_FOUND, exactly like a missing one.
 */
export async function forget(caller: Caller, request: { id: string; reason?: string | null }): Promise<MemoryRecord> {
  const { id, reason } = request;
  checkLength(reason, MAX_REASON_CHARS, 'reason');
  const found = await memoryForWrite(caller, id);
  const forgotten = await caller.services.update.forget({ id, namespace: found.namespace, actor: caller.principal.name }, reason);
  return refreshMemory(caller, id, forgotten);
}
