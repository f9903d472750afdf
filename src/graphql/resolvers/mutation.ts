import { itemError } from '../../api/index.js';
import { isMnemographError, ValidationError } from '../../errors.js';
import { checkBatchSize, type BatchOutcome } from '../../write/index.js';
import type { RememberInput } from '../../write/index.js';
import type { MutationResolvers } from '../generated/types.js';
import { knowledgeMutations } from './knowledge-mutations.js';
import { memoryMutations } from './memory-mutations.js';
import { pipelineMutations } from './pipeline.js';

export const Mutation: MutationResolvers = {
  ...memoryMutations,
  ...pipelineMutations,
  ...knowledgeMutations,

  remember: async (_, { input }, ctx) => {
    const namespace = ctx.caller.namespaceFor(input.namespace, 'write');
    return ctx.caller.services.remember.remember({ ...input, namespace }, { actor: ctx.caller.principal.name });
  },

  rememberBatch: async (_, { inputs }, ctx) => {
    // One outcome per input, whatever the cause: a namespace the key may not write is that item's
    // FORBIDDEN. Only a batch over MAX_BATCH_SIZE is refused whole.
    checkBatchSize(inputs.length, ctx.caller.services.config.MAX_BATCH_SIZE);
    const refused: BatchOutcome[] = [];
    const allowed: Array<{ index: number; input: RememberInput }> = [];
    for (const [index, input] of inputs.entries()) {
      try {
        // A transcript is stored per session by `remember` (upkeep.ts), never by a batch.
        if (input.transcript != null)
          throw new ValidationError('transcript is taken by remember only, one session at a time', { field: 'transcript' });
        allowed.push({ index, input: { ...input, namespace: ctx.caller.namespaceFor(input.namespace, 'write') } });
      } catch (error) {
        if (!isMnemographError(error)) throw error;
        refused.push({ index, error });
      }
    }
    const stored = await ctx.caller.services.remember.rememberBatch(
      allowed.map((a) => a.input),
      { actor: ctx.caller.principal.name },
    );
    const outcomes = [...refused, ...stored.map((o) => ({ ...o, index: allowed[o.index]!.index }))].sort((a, b) => a.index - b.index);
    return outcomes.map((o) => ({
      index: o.index,
      result: o.result ?? null,
      error: o.error ? itemError(ctx.caller, o.error, { operation: 'rememberBatch', index: o.index }) : null,
    }));
  },
};
