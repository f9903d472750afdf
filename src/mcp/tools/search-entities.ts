import { z } from 'zod';
import { ENTITY_TYPES, entities as entityPage, MAX_SEARCH_CHARS } from '../../api/index.js';
import { clipper, NAME_SHARE } from '../answers.js';
import { fitList } from '../budget.js';
import { maxTokens, namespace } from '../schemas.js';
import { defineTool } from '../tool.js';

export default defineTool({
  name: 'search_entities',
  description: 'Entities whose name contains the query (case-insensitive), most mentioned first; optionally of one type.',
  input: z.object({
    query: z.string().max(MAX_SEARCH_CHARS),
    namespace,
    type: z.enum([...ENTITY_TYPES, 'extracted']).optional(),
    limit: z.number().int().min(1).optional().describe('At most MAX_PAGE_SIZE (100 by default); more is LIMIT_EXCEEDED.'),
    max_tokens: maxTokens,
  }),
  annotations: { readOnlyHint: true },
  async call(args, caller, ctx) {
    const page = await entityPage(caller, {
      namespace: args.namespace,
      search: args.query,
      type: args.type ?? null,
      first: args.limit ?? 20,
      firstField: 'limit',
    });
    const clip = clipper(args.max_tokens, ctx);
    const entities = page.edges.map(({ node }) => ({
      id: node.id,
      name: clip(node.name, NAME_SHARE),
      type: node.type,
      mentions: node.mentions,
    }));
    return fitList({ has_more: page.pageInfo.hasNextPage }, 'entities', entities, args.max_tokens, ctx.count);
  },
});
