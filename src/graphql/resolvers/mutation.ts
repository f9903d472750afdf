import { isMnemographError, ValidationError, type MnemographError } from '../../errors.js';
import { checkBatchSize, type BatchOutcome } from '../../write/index.js';
import type { RememberInput } from '../../write/index.js';
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
    // One outcome per input, whatever the cause: a namespace the key may not write is that item's
    // FORBIDDEN. Only a batch over MAX_BATCH_SIZE is refused whole.
    checkBatchSize(inputs.length, ctx.services.config.MAX_BATCH_SIZE);
    const refused: BatchOutcome[] = [];
    const allowed: Array<{ index: number; input: RememberInput }> = [];
    for (const [index, input] of inputs.entries()) {
      try {
        // A transcript is stored per session by `remember` (upkeep.ts), never by a batch.
        if (input.transcript != null)
          throw new ValidationError('transcript is taken by remember only, one session at a time', { field: 'transcript' });
        allowed.push({ index, input: { ...input, namespace: ctx.namespaceFor(input.namespace, 'write') } });
      } catch (error) {
        if (!isMnemographError(error)) throw error;
        refused.push({ index, error });
      }
    }
    const stored = await ctx.services.remember.rememberBatch(
      allowed.map((a) => a.input),
      { actor: ctx.principal.name },
    );
    const outcomes = [...refused, ...stored.map((o) => ({ ...o, index: allowed[o.index]!.index }))].sort((a, b) => a.index - b.index);
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
