import type { ObserveResult } from '../../sessions/index.js';
import type { Caller } from '../caller.js';

/**
 * A user prompt of an open session, reported by the agent's harness: counted (it may fire a
 * periodic checkpoint) and, unless `recall` is false, recalled for. A session never started (or
 * ended) is left alone: no session in the answer.
 */
export async function sessionPrompt(
  caller: Caller,
  request: {
    namespace?: string | null;
    sessionId: string;
    prompt: string;
    recall: boolean;
    limit?: number | null;
    tokenBudget: number;
    eventId?: string | null;
  },
) {
  const namespace = caller.namespaceFor(request.namespace, 'write');
  const recalled = request.recall
    ? await caller.services.recall.recall({
        query: request.prompt,
        namespace,
        limit: request.limit ?? 10,
        tokenBudget: request.tokenBudget,
      })
    : null;
  const observed = await caller.services.sessions.observe({
    namespace,
    sessionId: request.sessionId,
    kind: 'prompt',
    query: request.prompt,
    eventId: request.eventId ?? null,
    keywordHits: recalled?.items.filter((i) => i.explanation.keyword).map((i) => i.memory.id) ?? [],
  });
  return { observed, recalled };
}

/** A tool result of an open session (its text kept, cut, for checkpoints and the summary); it may fire a checkpoint. */
export function sessionToolResult(
  caller: Caller,
  request: { namespace?: string | null; sessionId: string; text: string },
): Promise<ObserveResult | null> {
  return caller.services.sessions.observe({
    namespace: caller.namespaceFor(request.namespace, 'write'),
    sessionId: request.sessionId,
    kind: 'tool',
    remembered: request.text,
  });
}
