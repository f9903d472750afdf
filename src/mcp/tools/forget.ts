import { z } from 'zod';
import { forget } from '../../api/index.js';
import { maxTokens } from '../schemas.js';
import { defineTool } from '../tool.js';

export default defineTool({
  name: 'forget',
  description:
    'Forget a memory by id (a soft delete, recorded in its history): it leaves recall and search. Forgetting twice changes nothing.',
  input: z.object({ id: z.string(), reason: z.string().optional(), max_tokens: maxTokens }),
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true },
  async call(args, caller) {
    const forgotten = await forget(caller, { id: args.id, reason: args.reason });
    return JSON.stringify({ id: forgotten.id, forgotten_at: forgotten.deletedAt });
  },
});
