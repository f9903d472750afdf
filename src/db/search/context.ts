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
