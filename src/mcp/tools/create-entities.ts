import { z } from 'zod';
import { createEntities, ENTITY_TYPES } from '../../api/index.js';
import { clipOutcomes, clipper, NAME_SHARE } from '../answers.js';
import { fitList } from '../budget.js';
import { graphItems, MAX_ITEMS_PER_CALL, maxTokens, namespace } from '../schemas.js';
import { defineTool } from '../tool.js';

export default defineTool({
  name: 'create_entities',
  description: `Create entities (people, organizations, places, projects, tools…) directly, no LLM. An existing name (case and spacing ignored) gets the given type and description. At most ${MAX_ITEMS_PER_CALL} per call.`,
  input: z.object({
    // Items are checked by the service, one outcome each: a bad type refuses its item, not the call.
    entities: graphItems(
      z.object({
        name: z.string(),
        type: z
          .string()
          .optional()
          .describe(`One of ${ENTITY_TYPES.join(', ')}.`),
        description: z.string().optional(),
      }),
    ),
    namespace,
    max_tokens: maxTokens,
  }),
  annotations: { readOnlyHint: false, idempotentHint: true },
  async call(args, caller, ctx) {
    const clip = clipper(args.max_tokens, ctx);
    const outcomes = await createEntities(caller, { namespace: args.namespace, entities: args.entities });
    const results = clipOutcomes(outcomes, clip, (r) => ({
      id: r.entity.id,
      name: clip(r.entity.name, NAME_SHARE),
      type: r.entity.type,
      created: r.created,
    }));
    return fitList({}, 'entities', results, args.max_tokens, ctx.count);
  },
});
