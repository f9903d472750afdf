import { z } from 'zod';
import { recoverSession } from '../../api/index.js';
import { sessionView } from '../answers.js';
import { clipText } from '../budget.js';
import { maxTokens, namespace, sessionId } from '../schemas.js';
import { defineTool } from '../tool.js';

export default defineTool({
  name: 'session_recover',
  description:
    "After a crash or a context compaction: where the session stood, its last checkpoint's digest, its recent prompts and memories, at most budget_chars characters (default 2,000).",
  input: z.object({
    session_id: sessionId,
    budget_chars: z.number().int().min(200).max(10_000).optional(),
    namespace,
    max_tokens: maxTokens,
  }),
  annotations: { readOnlyHint: true },
  async call(args, caller, ctx) {
    const r = await recoverSession(caller, {
      namespace: args.namespace,
      sessionId: args.session_id,
      budgetChars: args.budget_chars ?? null,
    });
    const meta = {
      ...sessionView(r.session),
      chars: r.chars,
      budget_chars: r.budget,
      omitted: r.omitted,
      checkpoint_id: r.checkpointId,
    };
    const room = Math.max(0, args.max_tokens - ctx.count(JSON.stringify({ ...meta, digest: '' })) - 2);
    return JSON.stringify({ ...meta, digest: clipText(r.digest, room, ctx.count) });
  },
});
