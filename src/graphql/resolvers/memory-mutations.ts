import { forgetMemory, forgetReason, setPinned } from '../../db/index.js';
import { ValidationError } from '../../errors.js';
import type { MutationResolvers } from '../generated/types.js';
import { memoryForWrite, refreshMemory } from '../guards.js';

const MAX_REASON_CHARS = 1000;

/** Mutations of one memory by id: looked up in the caller's namespaces first (NOT_FOUND otherwise). */
export const memoryMutations: Pick<MutationResolvers, 'forget' | 'pin' | 'unpin' | 'updateMemory'> = {
  forget: async (_, { id, reason }, ctx) => {
    if (reason && reason.length > MAX_REASON_CHARS)
      throw new ValidationError(`reason is longer than ${MAX_REASON_CHARS} characters`, { field: 'reason' });
    const memory = await memoryForWrite(ctx, id);
    const forgotten = await forgetMemory(
      ctx.services.executor,
      { id, namespace: memory.namespace, actor: ctx.principal.name },
      forgetReason(reason),
    );
    return refreshMemory(ctx, id, forgotten);
  },

  pin: async (_, { id }, ctx) => {
    const memory = await memoryForWrite(ctx, id);
    return refreshMemory(
      ctx,
      id,
      await setPinned(ctx.services.executor, { id, namespace: memory.namespace, actor: ctx.principal.name }, true),
    );
  },

  unpin: async (_, { id }, ctx) => {
    const memory = await memoryForWrite(ctx, id);
    return refreshMemory(
      ctx,
      id,
      await setPinned(ctx.services.executor, { id, namespace: memory.namespace, actor: ctx.principal.name }, false),
    );
  },

  updateMemory: async (_, { id, content }, ctx) => {
    const memory = await memoryForWrite(ctx, id);
    const updated = await ctx.services.update.update({ id, namespace: memory.namespace, content, actor: ctx.principal.name });
    ctx.loaders.chunksByMemory.clear(id);
    ctx.loaders.entitiesByMemory.clear(id);
    ctx.loaders.attributesByMemory.clear(id);
    ctx.loaders.historyByMemory.clear(id);
    return refreshMemory(ctx, id, updated);
  },
};
