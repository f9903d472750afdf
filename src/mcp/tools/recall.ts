import { z } from 'zod';
import { recall } from '../../api/index.js';
import { round } from '../answers.js';
import { clipText, fitList } from '../budget.js';
import { filterInput, filters, maxTokens, namespace } from '../schemas.js';
import { defineTool } from '../tool.js';

export default defineTool({
  name: 'recall',
  description:
    'Recall what is relevant to a query: a <memory> block ready for the prompt, plus the ids and scores of the memories in it, within max_tokens.',
  input: (limits) =>
    z.object({
      query: z.string(),
      namespace,
      limit: z.number().int().min(1).optional().describe(`At most ${limits.maxRecallLimit} (default 10).`),
      filters,
      as_of: z.string().datetime({ offset: true }).optional().describe('The time the question is asked (default now).'),
      max_tokens: maxTokens,
    }),
  annotations: { readOnlyHint: true },
  async call(args, caller, ctx) {
    const budget = args.max_tokens;
    // The memories get the budget less room for the ids list that follows them; that list
    // always has room for its empty form, so the answer ends in valid JSON.
    const outcome = await recall(caller, {
      query: args.query,
      namespace: args.namespace,
      limit: args.limit ?? 10,
      tokenBudget: Math.max(1, Math.floor(budget * 0.8)),
      filters: filterInput(args.filters),
      asOf: args.as_of ?? null,
    });
    const ids = outcome.items.map((item) => ({ id: item.memory.id, type: item.memory.type, score: round(item.score) }));
    const emptyList = ctx.count(JSON.stringify({ memories: [], omitted: ids.length }));
    const prompt = clipText(outcome.prompt, Math.max(0, Math.min(Math.floor(budget * 0.8), budget - emptyList - 2)), ctx.count);
    const list = fitList({}, 'memories', ids, budget - ctx.count(prompt) - 2, ctx.count);
    return `${prompt}\n${list}`;
  },
});
