import { z } from 'zod';
import { sessionToolResult } from '../../api/index.js';
import { checkpointView, sessionView } from '../answers.js';
import { fitJson } from '../budget.js';
import { maxTokens, namespace, sessionId } from '../schemas.js';
import { defineTool } from '../tool.js';

export default defineTool({
  name: 'session_tool_result',
  description:
    'Count a tool result of an open session (its text kept, cut, for checkpoints and the end-of-session summary). May fire a checkpoint after 15 minutes.',
  input: z.object({ session_id: sessionId, text: z.string().min(1), namespace, max_tokens: maxTokens }),
  annotations: { readOnlyHint: false },
  async call(args, caller, ctx) {
    const observed = await sessionToolResult(caller, { namespace: args.namespace, sessionId: args.session_id, text: args.text });
    return fitJson(
      { session: observed ? sessionView(observed.session) : null, checkpoint: checkpointView(observed?.checkpoint) },
      args.max_tokens,
      ctx.count,
    );
  },
});
