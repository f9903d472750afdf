import type { Executor } from '../executor.js';
import { databaseNow } from './clock.js';

export const EXTEND_LEASE = `
MATCH (j:Job {id: $id})
WHERE j.status = 'leased' AND j.leaseOwner = $owner
SET j.leasedAt = $now, j.updatedAt = $now
RETURN j.id AS id`;

/** Heartbeat: a long job keeps its lease so the stale-lease reaper leaves it alone. */
export async function extendLease(executor: Executor, id: string, owner: string, now?: Date): Promise<boolean> {
  const rows = await executor.writeTx('jobs.extend-lease', async (tx) =>
    tx.run(EXTEND_LEASE, { id, owner, now: (await databaseNow(tx, now)).toISOString() }),
  );
  return rows.length > 0;
}
