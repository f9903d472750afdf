import { z } from 'zod';
import { memories } from '../../api/index.js';
import { MIN_CONTENT_TOKENS } from '../answers.js';
import { clipText, fitList } from '../budget.js';
import { maxTokens } from '../schemas.js';
import { defineTool } from '../tool.js';

const MAX_IDS = 50;

export default defineTool({
  name: 'get_memories',
  description: `Step 3 of progressive disclosure: full records of memories by id (at most ${MAX_IDS}), in the order asked. Ids you may not read are reported as not found.`,
  input: z.object({ ids: z.array(z.string()).min(1).max(MAX_IDS), max_tokens: maxTokens }),
  annotations: { readOnlyHint: true },
  async call(args, caller, ctx) {
    const found = await memories(caller, args.ids);
    // Each record gets an equal share; its content is clipped to what the other fields leave of it.
    const share = Math.floor(args.max_tokens / args.ids.length);
    const records = args.ids.map((id, i) => {
      const m = found[i];
      if (!m) return { id, error: 'NOT_FOUND' };
      const record = {
        id,
        type: m.type,
        at: m.occurredAt ?? m.createdAt,
        tags: m.tags,
        content: '',
        ...(m.deletedAt ? { forgotten: true } : {}),
      };
      const room = Math.max(MIN_CONTENT_TOKENS, share - ctx.count(JSON.stringify(record)) - 2);
      return { ...record, content: clipText(m.content, room, ctx.count) };
    });
    return fitList({}, 'memories', records, args.max_tokens, ctx.count);
  },
});
