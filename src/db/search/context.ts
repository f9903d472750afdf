import type { Executor } from '../executor.js';

// The memories just before and after each anchor in its session (by timelineKey): in a
// conversation the answer often sits one turn away from the words that match the question.
export const SESSION_NEIGHBOURS = `
UNWIND $ids AS id
MATCH (a:Memory {id: id})
WHERE a.sessionId IS NOT NULL AND a.timelineKey IS NOT NULL
CALL (a) {
  MATCH (m:Memory {namespace: a.namespace, sessionId: a.sessionId})
  WHERE m.timelineKey < a.timelineKey AND m.deletedAt IS NULL
  RETURN m ORDER BY m.timelineKey DESC LIMIT toInteger($window)
  UNION
  MATCH (m:Memory {namespace: a.namespace, sessionId: a.sessionId})
  WHERE m.timelineKey > a.timelineKey AND m.deletedAt IS NULL
  RETURN m ORDER BY m.timelineKey LIMIT toInteger($window)
}
RETURN id AS anchorId, m.id AS memoryId`;

/** Up to `window` memories on each side of each anchor, in its session. */
export async function sessionNeighbourRows(
  executor: Executor,
  anchorIds: string[],
  window: number,
): Promise<Array<{ anchorId: string; memoryId: string }>> {
  return executor.read<{ anchorId: string; memoryId: string }>('recall.context', SESSION_NEIGHBOURS, { ids: anchorIds, window });
}
