import type { Executor, TxRunner } from '../executor.js';

/**
 * Compression of an episodic session: its memories read for the summary, then linked
 * (:Memory)-[:SUMMARIZES]->(:Memory) from the summary and marked `compressedAt`, only while
 * every source is still the version summarized (the caller checks, then links, in one transaction).
 */

export const COMPRESSIBLE_SESSION_MEMORIES = `
MATCH (m:Memory {namespace: $namespace, sessionId: $sessionId})
WHERE m.type = 'episodic' AND m.deletedAt IS NULL AND m.compressedAt IS NULL AND m.supersededAt IS NULL
RETURN m.id AS id, m.content AS content, m.contentHash AS contentHash, m.occurredAt AS occurredAt, m.source AS source
ORDER BY m.timelineKey LIMIT toInteger($limit)`;

// Every source must be the version summarized, still live and uncompressed: otherwise nothing.
// A source already compressed into this very summary is this transaction's own work, re-run
// after a lost COMMIT reply.
export const UNCHANGED_COMPRESSION_SOURCES = `
UNWIND $sources AS src
OPTIONAL MATCH (m:Memory {id: src.id})
WHERE m.contentHash = src.contentHash AND m.deletedAt IS NULL AND (m.compressedAt IS NULL OR m.compressedInto = $summaryId)
RETURN count(m) AS unchanged`;

export const LINK_COMPRESSION_SOURCES = `
MATCH (s:Memory {id: $summaryId})
UNWIND $sourceIds AS id
MATCH (m:Memory {id: id})
SET m.compressedAt = $now, m.compressedInto = s.id, m.updatedAt = $now
MERGE (s)-[r:SUMMARIZES]->(m)
  ON CREATE SET r.at = $now
SET s.compressionSource = true`;

export interface CompressionSource {
  id: string;
  content: string;
  contentHash: string;
  occurredAt: string | null;
  source: string | null;
}

/** The session's live, uncompressed episodic memories in timeline order, at most `limit`. */
export async function compressibleSessionMemories(
  executor: Executor,
  q: { namespace: string; sessionId: string; limit: number },
): Promise<CompressionSource[]> {
  return executor.read<{
    id: string;
    content: string;
    contentHash: string;
    occurredAt: string | null;
    source: string | null;
  }>('compress.session', COMPRESSIBLE_SESSION_MEMORIES, {
    namespace: q.namespace,
    sessionId: q.sessionId,
    limit: q.limit,
  });
}

/** How many of the sources are still the version summarized (live, not compressed elsewhere). */
export async function unchangedCompressionSources(
  tx: TxRunner,
  summaryId: string,
  sources: ReadonlyArray<{ id: string; contentHash: string }>,
): Promise<number> {
  const [check] = await tx.run<{ unchanged: number }>(UNCHANGED_COMPRESSION_SOURCES, { summaryId, sources });
  return Number(check?.unchanged ?? 0);
}

export async function linkCompressionSources(tx: TxRunner, summaryId: string, sourceIds: readonly string[], now: string): Promise<void> {
  await tx.run(LINK_COMPRESSION_SOURCES, { summaryId, sourceIds, now });
}

export const COMPRESS_JOB_SESSION = `
MATCH (j:Job {id: $jobId}) RETURN j.sessionId AS sessionId, j.namespace AS namespace`;

/** The session and namespace a compress job works on (null when the job is gone). */
export async function compressJobSession(
  executor: Executor,
  jobId: string,
): Promise<{ sessionId: string | null; namespace: string } | null> {
  const [job] = await executor.read<{ sessionId: string | null; namespace: string }>('compress.job', COMPRESS_JOB_SESSION, { jobId });
  return job ?? null;
}
