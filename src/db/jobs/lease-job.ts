import neo4j from 'neo4j-driver';
import type { Executor } from '../executor.js';
import { JOB_RETURN, type JobRecord } from '../records.js';
import { databaseNow } from './clock.js';
import { extractLaneId, SERIALIZED_KIND } from './extract-lane.js';

/** Pending jobs a claim looks at; the claim takes the oldest one still pending under its lock. */
export const LEASE_WINDOW = 10;

// A namespace whose extract job is leased offers no other extract job (checked before the window,
// so a busy namespace's backlog does not starve the others).
const NOT_BUSY = `NOT EXISTS { MATCH (o:Job {namespace: j.namespace, status: 'leased'}) WHERE o.kind = $serialized }`;

// Jobs are taken in turn order (enqueue.ts gives each its place in its namespace's round), so a
// namespace with a backlog and one with new work take turns; within a turn, the oldest first.
// The turn index is read in order and stops after the window: ordering by `j.status` first (one
// value here) is what lets the planner see that job_status_turn already gives that order; by
// `j.turn` alone it read every pending job and sorted them (2,000 pending: 14,073 db hits a
// claim, 151 now).
// A write lock is taken on each job of the window (oldest first, so every claimer locks in the
// same order), THEN its status is read again: a claimer that waited for another's lock sees that
// job leased and takes the next one. Read committed alone would let two claimers lease one job.
export const PICK_JOB = `
MATCH (j:Job) USING INDEX j:Job(status, turn)
WHERE j.status = 'pending' AND j.turn >= 0 AND j.availableAt <= $now AND j.kind IN $kinds
  AND ($namespaces IS NULL OR j.namespace IN $namespaces) AND NOT j.namespace IN $waiting
  AND (j.kind <> $serialized OR ${NOT_BUSY})
WITH j ORDER BY j.status, j.turn, j.availableAt, j.createdAt, j.id LIMIT toInteger($window)
SET j._lock = true
REMOVE j._lock
WITH j WHERE j.status = 'pending'
WITH j ORDER BY j.turn, j.availableAt, j.createdAt, j.id LIMIT 1
RETURN j.id AS id, j.kind AS kind, j.namespace AS namespace`;

const LEASE = `
SET j.status = 'leased', j.attempts = coalesce(j.attempts, 0) + 1, j.leaseOwner = $owner,
    j.leasedAt = $now, j.updatedAt = $now
WITH j
OPTIONAL MATCH (j)-[:FOR]->(m:Memory)
RETURN ${JOB_RETURN('j', 'm')} AS job`;

export const LEASE_PICKED = `MATCH (j:Job {id: $id}) WHERE j.status = 'pending' ${LEASE}`;

// Two claimers may pick different extract jobs of one namespace, each seeing none leased. Both
// then queue on the namespace's lane lock; whoever comes second reads the first one's lease
// (read after the lock) and leases nothing this round.
export const LEASE_IN_LANE = `
MERGE (l:Lock {id: $laneId})
ON CREATE SET l.name = 'extract lane'
SET l._lock = true
REMOVE l._lock
WITH l
MATCH (j:Job {id: $id}) WHERE j.status = 'pending' AND ${NOT_BUSY}
${LEASE}`;

export interface LeaseOptions {
  /** Only jobs of these namespaces (a worker dedicated to some tenants); all when absent. */
  namespaces?: readonly string[] | null;
  /** Namespaces whose jobs wait this time (over their model budget). */
  waiting?: readonly string[];
  /** Tests only: the database's clock is used otherwise. */
  now?: Date;
}

/**
 * Claims a runnable pending job of these kinds for `owner`, or null when there is none: round-robin
 * across namespaces (the oldest job of the namespace served least recently).
 * At most one extract job per namespace is leased at a time, across every replica's workers.
 */
export async function leaseJob(
  executor: Executor,
  owner: string,
  kinds: readonly string[],
  options: LeaseOptions = {},
): Promise<JobRecord | null> {
  if (kinds.length === 0) return null;
  return executor.writeTx('jobs.lease', async (tx) => {
    const now = (await databaseNow(tx, options.now)).toISOString();
    const [picked] = await tx.run<{ id: string; kind: string; namespace: string }>(PICK_JOB, {
      now,
      kinds: [...kinds],
      namespaces: options.namespaces ? [...options.namespaces] : null,
      waiting: [...(options.waiting ?? [])],
      serialized: SERIALIZED_KIND,
      window: neo4j.int(LEASE_WINDOW),
    });
    if (!picked) return null;
    const rows =
      picked.kind === SERIALIZED_KIND
        ? await tx.run<{ job: JobRecord }>(LEASE_IN_LANE, {
            id: picked.id,
            laneId: extractLaneId(picked.namespace),
            serialized: SERIALIZED_KIND,
            owner,
            now,
          })
        : await tx.run<{ job: JobRecord }>(LEASE_PICKED, { id: picked.id, owner, now });
    return rows[0]?.job ?? null;
  });
}
