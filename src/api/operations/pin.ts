import type { MemoryRecord } from '../../db/index.js';
import type { Caller } from '../caller.js';
import { memoryForWrite, refreshMemory } from '../guards.js';

/** Pins or unpins a memory: pinned ones are never dampened or dropped by importance filters. */
export async function pin(caller: Caller, request: { id: string; pinned: boolean }): Promise<MemoryRecord> {
  const { id, pinned } = request;
  const found = await memoryForWrite(caller, id);
  return refreshMemory(
    caller,
    id,
    await caller.services.update.pin({ id, namespace: found.namespace, actor: caller.principal.name }, pinned),
  );
}
