import neo4j from 'neo4j-driver';
import type { Executor } from '../executor.js';
import { enqueue, jobName } from '../jobs/index.js';
import type { JobRecord } from '../records.js';

/**
 * The sessions to compress (src/deep/compression-job.ts) and their `compress` jobs, in one transaction.
 */

// Sessions whose uncompressed episodic memories all happened before $olderThan, oldest first,
// without an open compress job; chosen only when at least $minSessions qualify, each with its
// first memory (the job is for it). Job ids are made before the call (one per position), so a
// re-run of this transaction chooses the same sessions and queues the same jobs.
export const SESSIONS_TO_COMPRESS = `
MATCH (m:Memory {namespace: $namespace})
WHERE m.type = 'episodic' AND m.sessionId IS NOT NULL AND m.deletedAt IS NULL AND m.compressedAt IS NULL AND m.supersededAt IS NULL
WITH m.sessionId AS sessionId, count(m) AS n, max(coalesce(m.occurredAt, m.createdAt)) AS last
WHERE n >= $minMemories AND last < $olderThan
  AND NOT EXISTS { MATCH (j:Job {namespace: $namespace, kind: 'compress', sessionId: sessionId}) WHERE j.status IN ['pending', 'leased'] AND NOT j.id IN $jobIds }
WITH sessionId, last ORDER BY last, sessionId LIMIT toInteger($maxSessions)
WITH collect(sessionId) AS sessions
WHERE size(sessions) >= $minSessions
UNWIND range(0, size(sessions) - 1) AS i
WITH sessions[i] AS sessionId, $jobIds[i] AS jobId
CALL (sessionId) {
  MATCH (first:Memory {namespace: $namespace, sessionId: sessionId})
  WHERE first.type = 'episodic' AND first.deletedAt IS NULL AND first.compressedAt IS NULL
  RETURN first ORDER BY first.timelineKey LIMIT 1
}
RETURN jobId, sessionId, first.id AS firstId`;

export interface CompressQueueing {
  namespace: string;
  olderThan: string;
  minSessions: number;
  minMemories: number;
  maxSessions: number;
  maxAttempts: number;
  /** Made before the transaction, one per position (maxSessions of them). */
  jobIds: string[];
  now: string;
}

/** Queues one `compress` job per chosen session; returns them (none when fewer than minSessions qualify). */
export async function queueCompressJobs(executor: Executor, q: CompressQueueing): Promise<JobRecord[]> {
  return executor.writeTx('compress.queue', async (tx) => {
    const sessions = await tx.run<{ jobId: string; sessionId: string; firstId: string }>(SESSIONS_TO_COMPRESS, {
      namespace: q.namespace,
      olderThan: q.olderThan,
      minSessions: neo4j.int(q.minSessions),
      minMemories: neo4j.int(q.minMemories),
      maxSessions: neo4j.int(q.maxSessions),
      jobIds: q.jobIds,
    });
    return enqueue(
      tx,
      sessions.map((s) => ({
        id: s.jobId,
        kind: 'compress',
        namespace: q.namespace,
        sessionId: s.sessionId,
        name: jobName('compress', s.sessionId, 40),
        maxAttempts: q.maxAttempts,
        target: { memoryId: s.firstId },
      })),
      q.now,
    );
  });
}
