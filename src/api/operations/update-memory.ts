import type { MemoryRecord } from '../../db/index.js';
import type { Caller } from '../caller.js';
import { memoryForWrite, refreshMemory } from '../guards.js';

/** Replaces a memory's content: the write path runs again on it. */
export async function updateMemory(caller: Caller, request: { id: string; content: string }): Promise<MemoryRecord> {
  const { id, content } = request;
  const found = await memoryForWrite(caller, id);
  const updated = await caller.services.update.update({ id, namespace: found.namespace, content, actor: caller.principal.name });
  // Its chunks, entities, attributes and history changed with it.
  caller.loaders.chunksByMemory.clear(id);
  caller.loaders.entitiesByMemory.clear(id);
  caller.loaders.attributesByMemory.clear(id);
  caller.loaders.historyByMemory.clear(id);
  return refreshMemory(caller, id, updated);
}
