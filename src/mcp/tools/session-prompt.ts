import { z } from 'zod';
import { sessionPrompt } from '../../api/index.js';
import { checkpointView, sessionView } from '../answers.js';
import { fitJson } from '../budget.js';
import { maxTokens, namespace, sessionId } from '../schemas.js';
import { defineTool } from '../tool.js';

export default defineTool({
  name: 'session_prompt',
  description:
    'Count a user prompt of an open session (every 10 prompts, or 15 minutes, a checkpoint is written). With recall (default true) it also answers the <memory> block for the prompt.',
  input: (limits) =>
    z.object({
      session_id: sessionId,
      prompt: z.string().min(1),
      recall: z.boolean().optional(),
      limit: z.number().int().min(1).optional().describe(`At most ${limits.maxRecallLimit} (default 10).`),
      namespace,
      max_tokens: maxTokens,
    }),
  annotations: { readOnlyHint: false },
  async call(args, caller, ctx) {
    const { observed, recalled } = await sessionPrompt(caller, {
      namespace: args.namespace,
      sessionId: args.session_id,
      prompt: args.prompt,
      recall: args.recall !== false,
      limit: args.limit,
      // The <memory> block gets most of the budget; the session's counts always fit in the rest.
      tokenBudget: Math.max(1, Math.floor(args.max_tokens * 0.6)),
    });
    const answer = {
      session: observed ? sessionView(observed.session) : null,
      checkpoint: checkpointView(observed?.checkpoint),
      ...(recalled ? { memory: recalled.prompt } : {}),
    };
    return fitJson(answer, args.max_tokens, ctx.count);
  },
});
