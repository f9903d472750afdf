import type { MnemographError } from '../../errors.js';
import type { GraphQLContext } from '../context.js';
import { INTERNAL_MESSAGE } from '../format-error.js';
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
    return ctx.services.remember.remember({ ...input, namespace }, { actor: ctx.principal.name });
  },

  rememberBatch: async (_, { inputs }, ctx) => {
    // Authorisation is per request: a batch touching a forbidden namespace is refused whole.
    const checked = inputs.map((input) => ({ ...input, namespace: ctx.namespaceFor(input.namespace, 'write') }));
    const outcomes = await ctx.services.remember.rememberBatch(checked, { actor: ctx.principal.name });
    return outcomes.map((o) => ({
      index: o.index,
      result: o.result ?? null,
      error: o.error ? itemError(o.error, o.index, ctx) : null,
    }));
  },
};

/** A batch item's error as the client sees it: internals logged, never answered. */
function itemError(error: MnemographError, index: number, ctx: GraphQLContext): { code: string; message: string } {
  if (error.code !== 'INTERNAL') return { code: error.code, message: error.message };
  ctx.logger.error({ err: error.cause ?? error, index }, 'unexpected error in a rememberBatch item');
  return { code: 'INTERNAL', message: INTERNAL_MESSAGE };
}
