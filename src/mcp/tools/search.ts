import { z } from 'zod';
import { search } from '../../api/index.js';
import { round } from '../answers.js';
import { fitList } from '../budget.js';
import { filterInput, filters, maxTokens, namespace } from '../schemas.js';
import { defineTool } from '../tool.js';

export default defineTool({
  name: 'search',
  description:
    'Step 1 of progressive disclosure: a compact index of matching memories (id, title, type, date, score, token estimate). Cheap; then call timeline for context or get_memories for full text.',
  input: z.object({
    query: z.string(),
    namespace,
    limit: z.number().int().min(1).max(100).optional(),
    offset: z.number().int().min(0).optional(),
    filters,
    max_tokens: maxTokens,
  }),
  annotations: { readOnlyHint: true },
  async call(args, caller, ctx) {
    const result = await search(caller, {
      query: args.query,
      namespace: args.namespace,
      limit: args.limit ?? 20,
      offset: args.offset ?? 0,
      filters: filterInput(args.filters),
    });
    const hits = result.hits.map((h) => ({
      id: h.id,
      title: h.title,
      type: h.type,
      occurred_at: h.occurredAt ?? h.createdAt,
      score: round(h.score),
      tokens: h.tokenEstimate,
    }));
    return fitList({ offset: result.offset, has_more: result.hasMore }, 'hits', hits, args.max_tokens, ctx.count);
  },
});
