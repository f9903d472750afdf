import neo4j from 'neo4j-driver';
import type { Executor } from '../../db/executor.js';
import { JOB_RETURN, type JobRecord } from '../../db/records.js';
import { databaseNow } from './clock.js';

/** Pending jobs a claim looks at; the claim takes the oldest one still pending under its lock. */
export const LEASE_WINDOW = 10;

// One statement. A write lock is taken on each job of the window (oldest first, so every
// claimer locks in the same order), THEN its status is read again: a claimer that waited for
// another's lock sees that job leased and takes the next one. Read committed alone would let
// two claimers lease the same job.
const LEASE_JOB = `
MATCH (j:Job)
WHERE j.status = 'pending' AND j.availableAt <= $now AND j.kind IN $kinds
  AND ($namespaces IS NULL OR j.namespace IN $namespaces)
WITH j ORDER BY j.availableAt, j.createdAt, j.id LIMIT toInteger($window)
SET j._lock = true
REMOVE j._lock
WITH j WHERE j.status = 'pending'
WITH j ORDER BY j.availableAt, j.createdAt, j.id LIMIT 1
SET j.status = 'leased', j.attempts = coalesce(j.attempts, 0) + 1, j.leaseOwner = $owner,
    j.leasedAt = $now, j.updatedAt = $now
WITH j
OPTIONAL MATCH (j)-[:FOR]->(m:Memory)
RETURN ${JOB_RETURN('j', 'm')} AS job`;

export interface LeaseOptions {
  /** Only jobs of these namespaces (a worker dedicated to some tenants); all when absent. */
  namespaces?: readonly string[] | null;
  /** Tests only: the database's clock is used otherwise. */
  now?: Date;
}

/** Claims the oldest runnable pending job of these kinds for `owner`, or null when there is none. */
export async function leaseJob(executor: Executor, owner: string, kinds: readonly string[], options: LeaseOptions = {}): Promise<JobRecord | null> {
  if (kinds.length === 0) return null;
  const rows = await executor.writeTx('jobs.lease', async (tx) =>
    tx.run<{ job: JobRecord }>(LEASE_JOB, {
      now: (await databaseNow(tx, options.now)).toISOString(),
      kinds: [...kinds],
      namespaces: options.namespaces ? [...options.namespaces] : null,
      owner,
      window: neo4j.int(LEASE_WINDOW),
    }),
  );
  return rows[0]?.job ?? null;
}
