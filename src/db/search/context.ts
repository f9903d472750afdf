import type { Executor } from '../executor.js';

/**
 * Up to `$window` memories of `a`'s session on each side of it (by timelineKey), as `m`: in a
 * conversation the answer often sits one turn away from the words that match the question.
 */
export const sessionWindow = (a: string, m: string) => `CALL (${a}) {
  MATCH (${m}:Memory {namespace: ${a}.namespace, sessionId: ${a}.sessionId})
  WHERE ${m}.timelineKey < ${a}.timelineKey AND ${m}.deletedAt IS NULL
  RETURN ${m} ORDER BY ${m}.timelineKey DESC LIMIT toInteger($window)
  UNION
  MATCH (${m}:Memory {namespace: ${a}.namespace, sessionId: ${a}.sessionId})
  WHERE ${m}.timelineKey > ${a}.timelineKey AND ${m}.deletedAt IS NULL
  RETURN ${m} ORDER BY ${m}.timelineKey LIMIT toInteger($window)
}`;

export const SESSION_NEIGHBOURS = `
UNWIND $ids AS id
MATCH (a:Memory {id: id})
WHERE a.sessionId IS NOT NULL AND a.timelineKey IS NOT NULL
${sessionWindow('a', 'm')}
RETURN id AS anchorId, m.id AS memoryId`;

/** Up to `window` memories on each side of each anchor, in its session. */
export async function sessionNeighbourRows(
  executor: Executor,
  anchorIds: string[],
  window: number,
): Promise<Array<{ anchorId: string; memoryId: string }>> {
  return executor.read<{ anchorId: string; memoryId: string }>('recall.context', SESSION_NEIGHBOURS, { ids: anchorIds, window });
}
