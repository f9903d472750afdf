import type { MutationResolvers } from '../generated/types.js';
import { knowledgeMutations } from './knowledge-mutations.js';
import { memoryMutations } from './memory-mutations.js';
import { pipelineMutations } from './pipeline.js';

export const Mutation: MutationResolvers = {
  ...memoryMutations,
  ...pipelineMutations,
  ...knowledgeMutations,

  remember: async (_, { input }, ctx) => {
    const namespace = ctx.namespaceFor(input.namespace, 'write');
    return ctx.services.remember.remember({ ...input, namespace });
  },

  rememberBatch: async (_, { inputs }, ctx) => {
    // Authorisation is per request: a batch touching a forbidden namespace is refused whole.
    const checked = inputs.map((input) => ({ ...input, namespace: ctx.namespaceFor(input.namespace, 'write') }));
    const outcomes = await ctx.services.remember.rememberBatch(checked);
    return outcomes.map((o) => ({
      index: o.index,
      result: o.result ?? null,
      error: o.error ? { code: o.error.code, message: o.error.message } : null,
    }));
  },
};
