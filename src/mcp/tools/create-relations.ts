import { z } from 'zod';
import { relateAll } from '../../api/index.js';
import { clipOutcomes, clipper, NAME_SHARE } from '../answers.js';
import { fitList } from '../budget.js';
import { graphItems, MAX_ITEMS_PER_CALL, maxTokens, namespace } from '../schemas.js';
import { defineTool } from '../tool.js';

export default defineTool({
  name: 'create_relations',
  description: `Relate existing entities: source —type→ target, e.g. {"source":"Alice","type":"works_at","target":"Acme"}. Repeating a relation counts another mention. At most ${MAX_ITEMS_PER_CALL} per call.`,
  input: z.object({
    relations: graphItems(
      z.object({ source: z.string(), type: z.string(), target: z.string(), confidence: z.number().optional().describe('0 to 1.') }),
    ),
    namespace,
    max_tokens: maxTokens,
  }),
  annotations: { readOnlyHint: false },
  async call(args, caller, ctx) {
    const clip = clipper(args.max_tokens, ctx);
    const outcomes = await relateAll(caller, { namespace: args.namespace, relations: args.relations });
    const results = clipOutcomes(outcomes, clip, (row, index) => ({
      id: row.id,
      source: clip(args.relations[index]!.source, NAME_SHARE),
      type: clip(row.type, NAME_SHARE),
      target: clip(args.relations[index]!.target, NAME_SHARE),
      mentions: row.mentions,
    }));
    return fitList({}, 'relations', results, args.max_tokens, ctx.count);
  },
});
