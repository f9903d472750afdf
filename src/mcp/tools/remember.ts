import { z } from 'zod';
import { remember } from '../../api/index.js';
import { rememberAnswer, rememberInput } from '../answers.js';
import { fitItems } from '../budget.js';
import { MEMORY_TYPES, maxTokens, namespace } from '../schemas.js';
import { defineTool } from '../tool.js';

export default defineTool({
  name: 'remember',
  description:
    'Store a memory (a fact, preference, decision, event or note). Synchronous, no LLM: redacted, deduplicated, embedded and linked to entities. Returns its id.',
  input: z.object({
    content: z.string().describe('The text to remember.'),
    namespace,
    type: z.enum(MEMORY_TYPES).optional().describe('Classified from the content when absent.'),
    tags: z.array(z.string()).max(50).optional(),
    source: z.string().optional(),
    session_id: z.string().optional(),
    occurred_at: z.string().datetime({ offset: true }).optional().describe('When it happened (ISO 8601).'),
    max_tokens: maxTokens,
  }),
  annotations: { readOnlyHint: false, idempotentHint: true },
  async call(args, caller, ctx) {
    // A memory of an open session is one of its tool results (src/sessions); an unknown session is left alone.
    const result = await remember(caller, { ...rememberInput(args, ctx), namespace: args.namespace });
    // Up to 50 tags: they get a quarter of the budget, the id and outcome always fit.
    const tags = fitItems(result.tags, Math.floor(args.max_tokens / 4), ctx.count);
    return JSON.stringify({ ...rememberAnswer(result), tags: tags.kept, ...(tags.omitted > 0 ? { tags_omitted: tags.omitted } : {}) });
  },
});
