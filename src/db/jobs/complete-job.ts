import type { Executor } from '../executor.js';
import { ADD_JOB_USAGE, usageParam, type JobLlmUsage } from './llm-usage.js';

// Only the lease holder may complete: a job reaped and re-leased elsewhere is not touched, and a
// re-run of this statement (lost COMMIT reply) finds the job completed and changes nothing.
// A job whose memory was rewritten while it ran (`rerunRequested`) goes back to the queue with a
// fresh attempt budget instead: it is the one job of its kind for the memory.
export const COMPLETE_JOB = `
MATCH (j:Job {id: $id})
WHERE j.status = 'leased' AND j.leaseOwner = $owner
WITH j, j.rerunRequested IS NOT NULL AS rerun
SET j.status = CASE WHEN rerun THEN 'pending' ELSE 'completed' END, j.completedAt = $now, j.updatedAt = $now, j.result = $result,
    j.attempts = CASE WHEN rerun THEN 0 ELSE j.attempts END, j.availableAt = CASE WHEN rerun THEN $now ELSE j.availableAt END,
    j.leaseOwner = CASE WHEN rerun THEN null ELSE j.leaseOwner END, j.leasedAt = CASE WHEN rerun THEN null ELSE j.leasedAt END,
    j.rerunRequested = null
${ADD_JOB_USAGE}
RETURN j.id AS id`;

/** Marks a leased job completed with its result (a JSON string) and model usage. False when the lease was lost. */
export async function completeJob(
  executor: Executor,
  id: string,
  owner: string,
  result: unknown,
  options: { now?: Date; llm?: JobLlmUsage } = {},
): Promise<boolean> {
  const now = options.now ?? new Date();
  const rows = await executor.write('jobs.complete', COMPLETE_JOB, {
    id,
    owner,
    now: now.toISOString(),
    result: JSON.stringify(result ?? null),
    llm: usageParam(options.llm),
  });
  return rows.length > 0;
}
