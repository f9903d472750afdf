import { z } from 'zod';
import { timeline } from '../../api/index.js';
import { MIN_CONTENT_TOKENS } from '../answers.js';
import { clipText, fitList } from '../budget.js';
import { maxTokens, namespace } from '../schemas.js';
import { defineTool } from '../tool.js';

export default defineTool({
  name: 'timeline',
  description:
    'Step 2 of progressive disclosure: the memories just before and after an anchor (an id from search, or the best match of a query), in time order.',
  input: z.object({
    anchor: z.string().optional().describe('A memory id.'),
    query: z.string().optional().describe('Used when no anchor is given.'),
    namespace,
    before: z.number().int().min(0).max(50).optional(),
    after: z.number().int().min(0).max(50).optional(),
    max_tokens: maxTokens,
  }),
  annotations: { readOnlyHint: true },
  async call(args, caller, ctx) {
    const t = await timeline(caller, {
      namespace: args.namespace,
      anchor: args.anchor ?? null,
      query: args.query ?? null,
      before: args.before ?? 5,
      after: args.after ?? 5,
    });
    // A third of the budget at most per memory, so the anchor and its nearest neighbours fit.
    const share = Math.floor(args.max_tokens / 3);
    const line = (m: { id: string; type: string; content: string; occurredAt: string | null; createdAt: string }, position: string) => {
      const row = { position, id: m.id, type: m.type, at: m.occurredAt ?? m.createdAt, content: '' };
      const room = Math.max(MIN_CONTENT_TOKENS, share - ctx.count(JSON.stringify(row)) - 2);
      return { ...row, content: clipText(m.content, room, ctx.count) };
    };
    // Closest to the anchor first, so a tight budget keeps the nearest context.
    const rows = t.anchor
      ? [
          line(t.anchor, 'anchor'),
          ...interleave(
            t.before
              .slice()
              .reverse()
              .map((m) => line(m, 'before')),
            t.after.map((m) => line(m, 'after')),
          ),
        ]
      : [];
    return fitList({}, 'memories', rows, args.max_tokens, ctx.count);
  },
});

function interleave<T>(a: T[], b: T[]): T[] {
  const out: T[] = [];
  for (let i = 0; i < Math.max(a.length, b.length); i += 1) {
    if (i < a.length) out.push(a[i]!);
    if (i < b.length) out.push(b[i]!);
  }
  return out;
}
