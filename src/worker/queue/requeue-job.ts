import type { Executor } from '../../db/executor.js';
import { JOB_RETURN, type JobRecord } from '../../db/records.js';
import { NotFoundError, ValidationError } from '../../errors.js';

const REQUEUE_JOB = `
MATCH (j:Job {id: $id})
WHERE $anyNamespace OR j.namespace IN $namespaces
WITH j, j.status AS before
CALL (j, before) {
  WITH j, before WHERE before IN ['dead', 'completed']
  SET j.status = 'pending', j.attempts = 0, j.availableAt = $now, j.updatedAt = $now, j.error = null,
      j.leaseOwner = null, j.leasedAt = null, j.requeuedAt = $now
}
WITH j, before
OPTIONAL MATCH (j)-[:FOR]->(m:Memory)
RETURN before, ${JOB_RETURN('j', 'm')} AS job`;

/**
 * Puts a dead or completed job back in the queue with a fresh attempt budget. Jobs outside the
 * readable namespaces (`null` = any) are reported as not found.
 */
export async function requeueJob(executor: Executor, id: string, namespaces: readonly string[] | null = null, now = new Date()): Promise<JobRecord> {
  const rows = await executor.write<{ before: string; job: JobRecord }>('jobs.requeue', REQUEUE_JOB, {
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
  return row.job;
}
