import { z } from 'zod';
import { startSession } from '../../api/index.js';
import { clipText } from '../budget.js';
import { maxTokens, namespace, sessionId } from '../schemas.js';
import { defineTool } from '../tool.js';

/** Characters of each preference listed beside the context (the context carries them too). */
const PREFERENCE_CHARS = 300;
const clipLine = (text: string) => (text.length > PREFERENCE_CHARS ? `${text.slice(0, PREFERENCE_CHARS - 1)}…` : text);

export default defineTool({
  name: 'session_start',
  description:
    "Open a session and get the context to inject at its start: pinned memories and constraints, the namespace's preferences and procedures (also listed as `preferences`), where the last session stood, the project's best memories, then the global namespace's — at most max_chars characters. Pass the same session_id to resume an open session.",
  input: z.object({
    session_id: sessionId.optional(),
    query: z.string().optional().describe('What the session is about (e.g. the first prompt).'),
    max_chars: z.number().int().min(200).max(40_000).optional(),
    harness: z.string().optional(),
    project: z.string().optional(),
    namespace,
    max_tokens: maxTokens,
  }),
  annotations: { readOnlyHint: false, idempotentHint: true },
  async call(args, caller, ctx) {
    const r = await startSession(caller, {
      namespace: args.namespace,
      sessionId: args.session_id ?? null,
      query: args.query ?? null,
      maxChars: args.max_chars ?? null,
      harness: args.harness ?? null,
      project: args.project ?? null,
    });
    // The session id and counts always fit; the context gets what is left of the budget.
    const preferences = r.preferences.map((m) => ({ id: m.id, type: m.type, content: clipLine(m.content) }));
    const meta = { session_id: r.session.sessionId, chars: r.chars, omitted: r.omitted, sections: r.sections, preferences };
    const room = Math.max(0, args.max_tokens - ctx.count(JSON.stringify({ ...meta, context: '' })) - 2);
    return JSON.stringify({ ...meta, context: clipText(r.context, room, ctx.count) });
  },
});
