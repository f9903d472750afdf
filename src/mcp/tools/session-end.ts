import { z } from 'zod';
import { endSession } from '../../api/index.js';
import { sessionView } from '../answers.js';
import { fitJson } from '../budget.js';
import { maxTokens, namespace, sessionId } from '../schemas.js';
import { defineTool } from '../tool.js';

export default defineTool({
  name: 'session_end',
  description:
    'Close a session: a final checkpoint, then in the background a summary (request, investigated, learned, next steps), the continuity score of what was injected, and aspect feedback. Safe to repeat.',
  input: z.object({
    session_id: sessionId,
    transcript: z.string().optional().describe('The raw conversation, stored once per session.'),
    namespace,
    max_tokens: maxTokens,
  }),
  annotations: { readOnlyHint: false, idempotentHint: true },
  async call(args, caller, ctx) {
    const r = await endSession(caller, { namespace: args.namespace, sessionId: args.session_id, transcript: args.transcript ?? null });
    return fitJson({ ...sessionView(r.session), ended_now: r.ended, summary_job_id: r.session.jobId }, args.max_tokens, ctx.count);
  },
});
