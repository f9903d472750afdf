import type { Executor } from '../executor.js';
import { databaseNow } from './clock.js';

// A worker that crashed mid-job leaves its lease behind. Such a job goes back to pending — or
// to dead if that lease was its last attempt, so a job that kills its worker cannot loop forever.
export const RELEASE_STALE = `
MATCH (j:Job)
WHERE j.status = 'leased' AND j.leasedAt < $cutoff
WITH j, j.attempts >= j.maxAttempts AS exhausted
SET j.status = CASE WHEN exhausted THEN 'dead' ELSE 'pending' END,
    j.error = 'lease expired: the worker ' + coalesce(j.leaseOwner, '?') + ' did not finish within ' + $timeoutMs + ' ms',
    j.failedAt = $now, j.availableAt = $now, j.updatedAt = $now, j.leaseOwner = null, j.leasedAt = null
RETURN count(j) AS released`;

/** Frees leases older than `leaseTimeoutMs`; returns how many jobs were released. */
export async function releaseStaleLeases(executor: Executor, leaseTimeoutMs: number, override?: Date): Promise<number> {
  const rows = await executor.writeTx('jobs.release-stale', async (tx) => {
    const now = await databaseNow(tx, override);
    return tx.run<{ released: number }>(RELEASE_STALE, {
      cutoff: new Date(now.getTime() - leaseTimeoutMs).toISOString(),
      now: now.toISOString(),
      timeoutMs: String(leaseTimeoutMs),
    });
  });
  return rows[0]?.released ?? 0;
}
