/**
 * Up to `$window` memories of `a`'s session on each side of it (by timelineKey), as `m`: in a
 * conversation the answer often sits one turn away from the words that match the question.
 * Ordered by the whole key of the (namespace, sessionId, timelineKey) index, equal as the first two
 * are, so the index gives the order and the seek stops after `$window` entries: ordered by
 * timelineKey alone, Neo4j read every memory of the session on that side and sorted them (6,900
 * rows for 20 anchors in a 10,000-memory namespace, against 80). The hint keeps that index: on
 * a store with few memories the planner prefers (namespace, sessionId) and sorts.
 */
export const sessionWindow = (a: string, m: string) => `CALL (${a}) {
  MATCH (${m}:Memory {namespace: ${a}.namespace, sessionId: ${a}.sessionId})
  USING INDEX ${m}:Memory(namespace, sessionId, timelineKey)
  WHERE ${m}.timelineKey < ${a}.timelineKey AND ${m}.deletedAt IS NULL
  RETURN ${m} ORDER BY ${m}.namespace DESC, ${m}.sessionId DESC, ${m}.timelineKey DESC LIMIT toInteger($window)
  UNION
  MATCH (${m}:Memory {namespace: ${a}.namespace, sessionId: ${a}.sessionId})
  USING INDEX ${m}:Memory(namespace, sessionId, timelineKey)
  WHERE ${m}.timelineKey > ${a}.timelineKey AND ${m}.deletedAt IS NULL
  RETURN ${m} ORDER BY ${m}.namespace, ${m}.sessionId, ${m}.timelineKey LIMIT toInteger($window)
}`;
