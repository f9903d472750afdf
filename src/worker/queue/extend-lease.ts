import type { Executor } from '../../db/executor.js';

const EXTEND_LEASE = `
MATCH (j:Job {id: $id})
WHERE j.status = 'leased' AND j.leaseOwner = $owner
SET j.leasedAt = $now, j.updatedAt = $now
RETURN j.id AS id`;

/** Heartbeat: a long job keeps its lease so the stale-lease reaper leaves it alone. */
export async function extendLease(executor: Executor, id: string, owner: string, now = new Date()): Promise<boolean> {
  const rows = await executor.write('jobs.extend-lease', EXTEND_LEASE, { id, owner, now: now.toISOString() });
  return rows.length > 0;
}
