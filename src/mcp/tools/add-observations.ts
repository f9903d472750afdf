import { z } from 'zod';
import { assertFacts, FACT_KINDS } from '../../api/index.js';
import { clipOutcomes, clipper, NAME_SHARE } from '../answers.js';
import { fitList } from '../budget.js';
import { graphItems, MAX_ITEMS_PER_CALL, maxTokens, namespace } from '../schemas.js';
import { defineTool } from '../tool.js';

export default defineTool({
  name: 'add_observations',
  description: `Add facts about existing entities, no LLM. Each goes under an aspect (default "facts"), through the same safety gate, contradiction check and supersession as extracted facts: a fact contradicting an active one (e.g. "likes X" vs "does not like X") supersedes it. kind "constraint" marks a decision that must always be recalled. At most ${MAX_ITEMS_PER_CALL} per call.`,
  input: z.object({
    observations: graphItems(
      z.object({
        entity: z.string(),
        content: z.string(),
        aspect: z.string().optional(),
        kind: z
          .string()
          .optional()
          .describe(`One of ${FACT_KINDS.join(', ')}.`),
        confidence: z.number().optional().describe('0 to 1.'),
      }),
    ),
    namespace,
    max_tokens: maxTokens,
  }),
  annotations: { readOnlyHint: false, idempotentHint: true },
  async call(args, caller, ctx) {
    const clip = clipper(args.max_tokens, ctx);
    const facts = args.observations.map((o) => ({ ...o, aspect: o.aspect ?? 'facts' }));
    const outcomes = await assertFacts(caller, { namespace: args.namespace, facts });
    const results = clipOutcomes(outcomes, clip, (r) => ({
      entity: clip(r.entity.name, NAME_SHARE),
      outcome: r.outcome,
      attribute_id: r.attribute?.id ?? null,
      memory_id: r.memory?.id ?? null,
      superseded: r.superseded,
    }));
    return fitList({}, 'observations', results, args.max_tokens, ctx.count);
  },
});
