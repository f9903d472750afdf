import { z } from 'zod';
import { rememberBatch } from '../../api/index.js';
import { batchError, batchRow, rememberInput } from '../answers.js';
import { fitList } from '../budget.js';
import { MEMORY_TYPES, maxTokensWithDefault, namespace } from '../schemas.js';
import { defineTool } from '../tool.js';

const MAX_BATCH_ITEMS = 50;
/** remember_batch's default answer budget: room for all 50 outcomes (about 40 tokens each), errors included. */
const BATCH_MAX_TOKENS = 4_000;

export default defineTool({
  name: 'remember_batch',
  description: `Store several memories at once (at most ${MAX_BATCH_ITEMS}), e.g. the turns of a conversation in order. One outcome per item, with its index: the items that can be stored are stored (id and dedup action), the others carry an error code.`,
  input: z.object({
    // Item fields are checked by the service, one outcome each: a bad type or date refuses its item, not the call.
    memories: z
      .array(
        z.object({
          content: z.string(),
          type: z
            .string()
            .optional()
            .describe(`One of ${MEMORY_TYPES.join(', ')}; classified from the content when absent.`),
          tags: z.array(z.string()).max(50).optional(),
          source: z.string().optional(),
          session_id: z.string().optional(),
          occurred_at: z.string().optional().describe('When it happened (ISO 8601).'),
        }),
      )
      .min(1)
      .max(MAX_BATCH_ITEMS),
    namespace,
    max_tokens: maxTokensWithDefault(BATCH_MAX_TOKENS),
  }),
  annotations: { readOnlyHint: false, idempotentHint: true },
  async call(args, caller, ctx) {
    // One namespace for the whole call: a key that may not write it is refused the call.
    const outcomes = await rememberBatch(
      caller,
      args.memories.map((m) => rememberInput(m, ctx)),
      { namespace: args.namespace },
    );
    // Compact rows (what is empty or known is left out), so 50 outcomes fit the default budget.
    const items = outcomes.map((o) =>
      o.result ? { index: o.index, ...batchRow(o.result) } : { index: o.index, error: batchError(o.error!, ctx) },
    );
    return fitList({}, 'memories', items, args.max_tokens, ctx.count);
  },
});
