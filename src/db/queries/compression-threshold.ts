import neo4j from 'neo4j-driver';
import type { Executor } from '../executor.js';

// Namespaces holding at least $minSessions sessions of live, uncompressed episodic memories whose
// last memory happened before $olderThan (the rule queueSessionCompression applies when it queues).
export const OVER_THRESHOLD = `
MATCH (m:Memory {type: 'episodic'})
WHERE m.sessionId IS NOT NULL AND m.deletedAt IS NULL AND m.compressedAt IS NULL AND m.supersededAt IS NULL
  AND ($namespaces IS NULL OR m.namespace IN $namespaces)
WITH m.namespace AS namespace, m.sessionId AS sessionId, max(coalesce(m.occurredAt, m.createdAt)) AS last
WHERE last < $olderThan
WITH namespace, count(sessionId) AS sessions
WHERE sessions >= $minSessions
RETURN namespace ORDER BY sessions DESC LIMIT $limit`;

/** Namespaces with enough old uncompressed sessions to start compression. */
export async function namespacesOverCompressionThreshold(
  executor: Executor,
  p: { namespaces: readonly string[] | null; olderThan: string; minSessions: number; limit: number },
): Promise<string[]> {
  const rows = await executor.read<{ namespace: string }>('compression.threshold', OVER_THRESHOLD, {
    namespaces: p.namespaces ? [...p.namespaces] : null,
    olderThan: p.olderThan,
    minSessions: neo4j.int(p.minSessions),
    limit: neo4j.int(p.limit),
  });
  return rows.map((r) => r.namespace);
}
