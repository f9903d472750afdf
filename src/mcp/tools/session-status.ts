import { z } from 'zod';
import { session } from '../../api/index.js';
import { sessionView } from '../answers.js';
import { fitJson } from '../budget.js';
import { maxTokens, namespace, sessionId } from '../schemas.js';
import { defineTool } from '../tool.js';

export default defineTool({
  name: 'session_status',
  description: 'A session as it stands; once its end job ran, its summary and continuity score.',
  input: z.object({ session_id: sessionId, namespace, max_tokens: maxTokens }),
  annotations: { readOnlyHint: true },
  async call(args, caller, ctx) {
    const s = await session(caller, { namespace: args.namespace, sessionId: args.session_id });
    if (!s) return JSON.stringify({ session: null });
    const summary = s.summarizedAt
      ? {
          request: s.summaryRequest,
          investigated: s.summaryInvestigated,
          learned: s.summaryLearned,
          next_steps: s.summaryNextSteps,
          files_changed: s.summaryFiles,
          more_files_changed: s.summaryFilesMore,
          completed: s.summaryCompleted,
          summarizer: s.summarizer,
          continuity: s.continuityScore,
          injected: s.injectedIds.length,
          used: s.continuityUsed,
        }
      : null;
    return fitJson({ ...sessionView(s), summary_job_id: s.jobId, summary }, args.max_tokens, ctx.count);
  },
});
