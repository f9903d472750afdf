import type { Executor } from '../executor.js';
import { JOB_RETURN, type JobRecord } from '../records.js';
import { ConflictError, NotFoundError, ValidationError } from '../../errors.js';

// Not while another job of the same kind is open for the memory: one would redo the other's work.
export const REQUEUE_JOB = `
MATCH (j:Job {id: $id})
WHERE $anyNamespace OR j.namespace IN $namespaces
OPTIONAL MATCH (j)-[:FOR]->(mem:Memory)
WITH j, j.status AS before,
     CASE WHEN mem IS NULL THEN null ELSE COUNT { (other:Job {kind: j.kind})-[:FOR]->(mem) WHERE other.id <> j.id AND other.status IN ['pending', 'leased'] } END AS open
CALL (j, before, open) {
  WITH j, before, open WHERE before IN ['dead', 'completed'] AND coalesce(open, 0) = 0
  SET j.status = 'pending', j.attempts = 0, j.availableAt = $now, j.updatedAt = $now, j.error = null,
      j.leaseOwner = null, j.leasedAt = null, j.requeuedAt = $now, j.turn = coalesce(j.turn, 0)
}
WITH j, before, open
OPTIONAL MATCH (j)-[:FOR]->(m:Memory)
RETURN before, coalesce(open, 0) AS open, ${JOB_RETURN('j', 'm')} AS job`;

/**
 * Puts a dead or completed job back in the queue with a fresh attempt budget, unless another job
 * of its kind for the same memory is pending or leased (ConflictError). Jobs outside the
 * readable namespaces (`null` = any) are reported as not found.
 */
export async function requeueJob(
  executor: Executor,
  id: string,
  namespaces: readonly string[] | null = null,
  now = new Date(),
): Promise<JobRecord> {
  const rows = await executor.write<{ before: string; open: number; job: JobRecord }>('jobs.requeue', REQUEUE_JOB, {
    id,
    namespaces: namespaces ?? [],
    anyNamespace: namespaces === null,
    now: now.toISOString(),
  });
  const row = rows[0];
  if (!row) throw new NotFoundError('job', id);
  if (row.before !== 'dead' && row.before !== 'completed') {
    throw new ValidationError(`job ${id} is ${row.before}; only dead or completed jobs can be requeued`, { status: row.before });
  }
  if (row.open > 0)
    throw new ConflictError(
      `another ${row.job.kind} job for memory ${row.job.memoryId} is already pending or running; job ${id} was not requeued`,
    );
  return row.job;
}
