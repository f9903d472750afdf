import type { EntityRecord, MemoryRecord } from '../db/index.js';
import { ForbiddenError, NotFoundError, ValidationError } from '../errors.js';
import type { Caller } from './caller.js';

/**
 * Namespace checks for calls that address a node by id. A node outside the caller's namespaces
 * is reported exactly like a missing one (null or NOT_FOUND), so ids never reveal that they
 * exist elsewhere. A read-only key is refused every mutation before any lookup, for the same reason.
 */

/** The namespaces a mutation may touch (null = all); FORBIDDEN for a read-only key. */
export function writableNamespaces(caller: Caller): readonly string[] | null {
  if (caller.principal.readOnly) throw new ForbiddenError('this API key is read-only');
  return caller.principal.readableNamespaces;
}

/** A memory the caller may change; NOT_FOUND when it is missing or in another namespace. */
export async function memoryForWrite(caller: Caller, id: string): Promise<MemoryRecord> {
  writableNamespaces(caller);
  const memory = await caller.loaders.memoryById.load(id);
  if (!memory) throw new NotFoundError('memory', id);
  caller.principal.assertWrite(memory.namespace);
  return memory;
}

/** Replaces the request's cached copy after a mutation, so nested fields see the new state. */
export function refreshMemory(caller: Caller, id: string, memory: MemoryRecord | null): MemoryRecord {
  caller.loaders.memoryById.clear(id);
  if (!memory) throw new NotFoundError('memory', id);
  caller.loaders.memoryById.prime(id, memory);
  return memory;
}

/** An entity the caller may read; NOT_FOUND otherwise. */
export async function readableEntity(caller: Caller, id: string): Promise<EntityRecord> {
  const entity = await caller.loaders.entityById.load(id);
  if (!entity) throw new NotFoundError('entity', id);
  return entity;
}

/** The scope of an operator call: one writable namespace, or (null) all of them for a "*" key. */
export function operatorScope(
  caller: Caller,
  namespace: string | null | undefined,
  allNamespaces: boolean | null | undefined,
): string | null {
  if (!allNamespaces) return caller.namespaceFor(namespace, 'write');
  if (writableNamespaces(caller) !== null) throw new ForbiddenError('allNamespaces needs an API key for every namespace ("*")');
  if (namespace) throw new ValidationError('give either namespace or allNamespaces, not both', { field: 'namespace' });
  return null;
}
