// Memories that know their conversation (src/db/queries/session-context.ts): the keyword leg also
// reads each memory with its neighbourhood (Memory.contextText: the session's date, the speaker,
// the end of the previous turn of the same session) beside its content.
CREATE FULLTEXT INDEX memory_in_context IF NOT EXISTS
FOR (n:Memory) ON EACH [n.content, n.contextText, n.namespaceToken]
OPTIONS { indexConfig: { `fulltext.analyzer`: 'english' } };

// The neighbourhood of the session memories stored before this migration (the same rule as the
// write path; facts extracted from a memory are not turns). Safe to run again: it rebuilds the same text.
MATCH (m:Memory)
WHERE m.sessionId IS NOT NULL AND m.timelineKey IS NOT NULL AND m.deletedAt IS NULL AND m.contextText IS NULL
  AND NOT (m)-[:EXTRACTED_FROM]->()
CALL (m) {
  WITH m, COLLECT {
    MATCH (p:Memory {namespace: m.namespace, sessionId: m.sessionId})
    WHERE p.timelineKey < m.timelineKey AND p.deletedAt IS NULL AND NOT (p)-[:EXTRACTED_FROM]->()
    RETURN p ORDER BY p.timelineKey DESC LIMIT 1
  }[0] AS p
  WITH m, p, CASE WHEN p IS NULL THEN null ELSE right(p.content, 300) END AS tail
  WITH m, p,
    CASE WHEN tail IS NOT NULL AND size(p.content) > size(tail) THEN ltrim(substring(tail, size(split(tail, ' ')[0]))) ELSE tail END AS tail,
    CASE WHEN m.occurredAt IS NULL THEN null ELSE datetime(m.occurredAt) END AS at
  WITH m, trim(
    coalesce(toString(at.day) + ' ' + ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'][at.month - 1] + ' ' + toString(at.year) + ' ', '') +
    coalesce(m.who + ' ', '') +
    coalesce(p.who + ' ', '') +
    coalesce(tail, '')) AS text
  SET m.contextText = CASE WHEN text = '' THEN null ELSE text END
} IN TRANSACTIONS OF 1000 ROWS;
