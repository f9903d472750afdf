import neo4j from 'neo4j-driver';
import type { TxRunner } from '../executor.js';
import { JOB_RETURN, type JobRecord } from '../records.js';

/**
 * The queue's one way in (graphile-worker's `add_job`): every Job is created here, pending, with
 * no attempts yet and available now, inside the caller's transaction, so it commits with the
 * change it follows up. Ids are made before the transaction and the node is MERGEd on them, so a
 * re-run of the transaction queues each job once.
 */

export type JobKind = 'extract' | 'hints' | 'dedup' | 'classify' | 'compress' | 'session_end';

/** What a job works on, linked `(:Job)-[:FOR]->`: a memory or an entity, by id. */
export type JobTarget = { memoryId: string } | { entityId: string };

export interface JobInput {
  /** Made before the transaction. */
  id: string;
  kind: JobKind;
  namespace: string;
  /** The caption Neo4j Browser shows (see jobName). */
  name: string;
  maxAttempts: number;
  /** None for a session's job, which names its session instead. */
  target?: JobTarget | null;
  sessionId?: string | null;
}

// A job whose memory or entity is gone is not queued.
// Its turn (the order claimers take jobs in, lease-job.ts): after its namespace's last pending job,
// or in the round being served now (the lowest runnable turn) when the namespace has fallen behind
// it, so a namespace with a backlog and one with new work take turns; `j.offset` (1, 2...)
// numbers one batch's jobs of a namespace. Both reads name every property of their index in ORDER
// BY, so each is one index entry read in order (by turn alone, the planner sorted every pending job).
export const ENQUEUE = `
CALL () {
  OPTIONAL MATCH (p:Job) USING INDEX p:Job(status, turn)
  WHERE p.status = 'pending' AND p.turn >= 0 AND p.availableAt <= $now
  RETURN p.turn AS serving ORDER BY p.status, p.turn LIMIT 1
}
UNWIND $jobs AS j
CALL (j) {
  OPTIONAL MATCH (p:Job) USING INDEX p:Job(namespace, status, turn)
  WHERE p.namespace = j.namespace AND p.status = 'pending' AND p.turn >= 0
  RETURN p.turn AS last ORDER BY p.namespace DESC, p.status DESC, p.turn DESC LIMIT 1
}
WITH j, coalesce(serving, 0) AS serving, coalesce(last, 0) AS last
OPTIONAL MATCH (m:Memory {id: j.memoryId})
OPTIONAL MATCH (e:Entity {id: j.entityId})
WITH j, m, e, CASE WHEN last >= serving THEN last + j.offset ELSE serving + j.offset - 1 END AS turn
WHERE (j.memoryId IS NULL OR m IS NOT NULL) AND (j.entityId IS NULL OR e IS NOT NULL)
MERGE (job:Job {id: j.id})
  ON CREATE SET job.namespace = j.namespace, job.kind = j.kind, job.sessionId = j.sessionId, job.status = 'pending',
    job.attempts = 0, job.maxAttempts = j.maxAttempts, job.availableAt = $now, job.createdAt = $now, job.updatedAt = $now,
    job.name = j.name, job.turn = turn
FOREACH (_ IN CASE WHEN m IS NULL THEN [] ELSE [1] END | MERGE (job)-[:FOR]->(m))
FOREACH (_ IN CASE WHEN e IS NULL THEN [] ELSE [1] END | MERGE (job)-[:FOR]->(e))
RETURN ${JOB_RETURN('job', 'm')} AS job`;

/** Queues the jobs; returns them as stored, in the order given (a job whose target is gone is left out). */
export async function enqueue(tx: TxRunner, jobs: readonly JobInput[], now: string): Promise<JobRecord[]> {
  if (jobs.length === 0) return [];
  const inBatch = new Map<string, number>();
  const rows = await tx.run<{ job: JobRecord }>(ENQUEUE, {
    jobs: jobs.map((j) => {
      const offset = (inBatch.get(j.namespace) ?? 0) + 1;
      inBatch.set(j.namespace, offset);
      return jobRow(j, offset);
    }),
    now,
  });
  const byId = new Map(rows.map((r) => [r.job.id, r.job]));
  return jobs.flatMap((j) => byId.get(j.id) ?? []);
}

function jobRow(j: JobInput, offset: number): Record<string, unknown> {
  return {
    id: j.id,
    offset: neo4j.int(offset),
    kind: j.kind,
    namespace: j.namespace,
    name: j.name,
    maxAttempts: neo4j.int(j.maxAttempts),
    memoryId: j.target && 'memoryId' in j.target ? j.target.memoryId : null,
    entityId: j.target && 'entityId' in j.target ? j.target.entityId : null,
    sessionId: j.sessionId ?? null,
  };
}

/** A job's caption: `prefix` and the first `chars` characters (code points, as Cypher's left()) of what it works on. */
export function jobName(prefix: string, subject: string, chars: number): string {
  return `${prefix} ${Array.from(subject).slice(0, chars).join('')}`;
}
