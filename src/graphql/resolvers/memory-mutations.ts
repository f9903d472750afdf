import { forgetMemory, forgetReason, setPinned } from '../../db/index.js';
import { ValidationError } from '../../errors.js';
import type { MutationResolvers } from '../generated/types.js';
import { memoryForWrite, refreshMemory } from '../../api/index.js';

const MAX_REASON_CHARS = 1000;

/** Mutations of one memory by id: looked up in the caller's namespaces first (NOT_FOUND otherwise). */
export const memoryMutations: Pick<MutationResolvers, 'forget' | 'pin' | 'unpin' | 'updateMemory'> = {
  forget: async (_, { id, reason }, ctx) => {
    if (reason && reason.length > MAX_REASON_CHARS)
      throw new ValidationError(`reason is longer than ${MAX_REASON_CHARS} characters`, { field: 'reason' });
    const memory = await memoryForWrite(ctx.caller, id);
    const forgotten = await forgetMemory(
      ctx.caller.services.executor,
      { id, namespace: memory.namespace, actor: ctx.caller.principal.name },
      forgetReason(reason),
    );
    return refreshMemory(ctx.caller, id, forgotten);
  },

  pin: async (_, { id }, ctx) => {
    const memory = await memoryForWrite(ctx.caller, id);
    return refreshMemory(
      ctx.caller,
      id,
      await setPinned(ctx.caller.services.executor, { id, namespace: memory.namespace, actor: ctx.caller.principal.name }, true),
    );
  },

  unpin: async (_, { id }, ctx) => {
    const memory = await memoryForWrite(ctx.caller, id);
    return refreshMemory(
      ctx.caller,
      id,
      await setPinned(ctx.caller.services.executor, { id, namespace: memory.namespace, actor: ctx.caller.principal.name }, false),
    );
  },

  updateMemory: async (_, { id, content }, ctx) => {
    const memory = await memoryForWrite(ctx.caller, id);
    const updated = await ctx.caller.services.update.update({ id, namespace: memory.namespace, content, actor: ctx.caller.principal.name });
    ctx.caller.loaders.chunksByMemory.clear(id);
    ctx.caller.loaders.entitiesByMemory.clear(id);
    ctx.caller.loaders.attributesByMemory.clear(id);
    ctx.caller.loaders.historyByMemory.clear(id);
    return refreshMemory(ctx.caller, id, updated);
  },
};
