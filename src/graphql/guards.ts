import type { EntityRecord, MemoryRecord } from '../db/index.js';
import { ForbiddenError, NotFoundError } from '../errors.js';
import type { GraphQLContext } from './context.js';

/**
 * Namespace checks for calls that address a node by id. A node outside the caller's namespaces
 * is reported exactly like a missing one (null or NOT_FOUND), so ids never reveal that they
 * exist elsewhere. A read-only key is refused every mutation before any lookup, for the same reason.
 */

/** The namespaces a mutation may touch (null = all); FORBIDDEN for a read-only key. */
export function writableNamespaces(ctx: GraphQLContext): readonly string[] | null {
  if (ctx.principal.readOnly) throw new ForbiddenError('this API key is read-only');
  return ctx.principal.readableNamespaces;
}

/** A memory the caller may change; NOT_FOUND when it is missing or in another namespace. */
export async function memoryForWrite(ctx: GraphQLContext, id: string): Promise<MemoryRecord> {
  writableNamespaces(ctx);
  const memory = await ctx.loaders.memoryById.load(id);
  if (!memory) throw new NotFoundError('memory', id);
  ctx.principal.assertWrite(memory.namespace);
  return memory;
}

/** Replaces the request's cached copy after a mutation, so nested fields see the new state. */
export function refreshMemory(ctx: GraphQLContext, id: string, memory: MemoryRecord | null): MemoryRecord {
  ctx.loaders.memoryById.clear(id);
  if (!memory) throw new NotFoundError('memory', id);
  ctx.loaders.memoryById.prime(id, memory);
  return memory;
}

/** An entity the caller may read; NOT_FOUND otherwise. */
export async function readableEntity(ctx: GraphQLContext, id: string): Promise<EntityRecord> {
  const entity = await ctx.loaders.entityById.load(id);
  if (!entity) throw new NotFoundError('entity', id);
  return entity;
}
