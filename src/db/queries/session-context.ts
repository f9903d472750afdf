import type { TxRunner } from '../executor.js';

/**
 * A memory's conversation, for the keyword leg: a turn alone is often not enough to find it ("Yes,
 * twice last month" answers the turn before it). `Memory.contextText` holds the neighbourhood a
 * memory of a session is also indexed with (full-text index `memory_in_context`, beside its
 * content): the session's date, its speaker (`who`), and the end of the previous turn of the same
 * session (its speaker and last CONTEXT_TAIL_CHARS characters). The content stays what was sent.
 *
 * Derived data, recomputed where its inputs change: when a memory of a session is written (its own
 * neighbourhood, and that of the turn after it, whose previous turn it may now be), and when a
 * memory is forgotten or its content updated (the turn after it). The previous turn is the latest
 * live memory of the same (namespace, sessionId) before it by timelineKey, facts extracted from a
 * memory left out (they are not turns). Every part comes from stored, redacted fields.
 */

/** Characters of the previous turn's end kept in a memory's neighbourhood. */
export const CONTEXT_TAIL_CHARS = 300;

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

// Each id stands for itself (when live and not an extracted fact) and for the next such memory of
// its session (whose previous turn it is, or was until it was forgotten). For each target, the
// neighbourhood is rebuilt from the previous turn; a memory of no session is left alone. The end
// of a longer previous turn starts at a word.
export const REFRESH_SESSION_CONTEXT = `
UNWIND $ids AS id
MATCH (a:Memory {id: id})
WHERE a.sessionId IS NOT NULL AND a.timelineKey IS NOT NULL
CALL (a) {
  WITH a
  WHERE a.deletedAt IS NULL AND NOT (a)-[:EXTRACTED_FROM]->()
  RETURN a AS m
  UNION
  MATCH (m:Memory {namespace: a.namespace, sessionId: a.sessionId})
  WHERE m.timelineKey > a.timelineKey AND m.deletedAt IS NULL AND NOT (m)-[:EXTRACTED_FROM]->()
  RETURN m ORDER BY m.timelineKey LIMIT 1
}
WITH DISTINCT m
WITH m, COLLECT {
  MATCH (p:Memory {namespace: m.namespace, sessionId: m.sessionId})
  WHERE p.timelineKey < m.timelineKey AND p.deletedAt IS NULL AND NOT (p)-[:EXTRACTED_FROM]->()
  RETURN p ORDER BY p.timelineKey DESC LIMIT 1
}[0] AS p
WITH m, p, CASE WHEN p IS NULL THEN null ELSE right(p.content, toInteger($tailChars)) END AS tail
WITH m, p,
  CASE WHEN tail IS NOT NULL AND size(p.content) > size(tail) THEN ltrim(substring(tail, size(split(tail, ' ')[0]))) ELSE tail END AS tail,
  CASE WHEN m.occurredAt IS NULL THEN null ELSE datetime(m.occurredAt) END AS at
WITH m, trim(
  coalesce(toString(at.day) + ' ' + $months[at.month - 1] + ' ' + toString(at.year) + ' ', '') +
  coalesce(m.who + ' ', '') +
  coalesce(p.who + ' ', '') +
  coalesce(tail, '')) AS text
SET m.contextText = CASE WHEN text = '' THEN null ELSE text END
RETURN m.id AS id, m.contextText AS contextText`;

/**
 * Rebuilds the neighbourhood of these memories and of the turn after each, in the caller's
 * transaction; safe to run twice. Returns what was set, per memory id (null: none).
 */
export async function refreshSessionContext(tx: TxRunner, memoryIds: readonly string[]): Promise<Map<string, string | null>> {
  if (memoryIds.length === 0) return new Map();
  const rows = await tx.run<{ id: string; contextText: string | null }>(REFRESH_SESSION_CONTEXT, {
    ids: [...new Set(memoryIds)],
    tailChars: CONTEXT_TAIL_CHARS,
    months: MONTHS,
  });
  return new Map(rows.map((r) => [r.id, r.contextText]));
}
