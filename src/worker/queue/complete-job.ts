import type { Executor } from '../../db/executor.js';

// Only the lease holder may complete: a job reaped and re-leased elsewhere is not touched.
const COMPLETE_JOB = `
MATCH (j:Job {id: $id})
WHERE j.status = 'leased' AND j.leaseOwner = $owner
SET j.status = 'completed', j.completedAt = $now, j.updatedAt = $now, j.result = $result
RETURN j.id AS id`;

/** Marks a leased job completed with its result (a JSON string). False when the lease was lost. */
export async function completeJob(executor: Executor, id: string, owner: string, result: unknown, now = new Date()): Promise<boolean> {
  const rows = await executor.write('jobs.complete', COMPLETE_JOB, { id, owner, now: now.toISOString(), result: JSON.stringify(result ?? null) });
  return rows.length > 0;
}
