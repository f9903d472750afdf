import neo4j from 'neo4j-driver';
import type { Executor } from '../../db/index.js';
import type { RepairAction } from '../../config/index.js';
import type { Diagnostics } from './diagnostics.js';

export type { RepairAction } from '../../config/index.js';

export interface Recommendation {
  action: RepairAction;
  reason: string;
}

/** What each diagnostic finding recommends, plus vector coverage (the embedding tracker repairs it). */
export function recommend(d: Diagnostics): Recommendation[] {
  const out: Recommendation[] = [];
  if (d.queue.deadRate > 0.01)
    out.push({ action: 'requeueDeadJobs', reason: `dead job rate ${(d.queue.deadRate * 100).toFixed(1)}% > 1%` });
  if (d.queue.staleLeases > 0) out.push({ action: 'releaseStaleLeases', reason: `${d.queue.staleLeases} stale leases` });
  if (d.indexes.vectorCoverage < 1)
    out.push({ action: 'reembedMissingVectors', reason: `vector coverage ${(d.indexes.vectorCoverage * 100).toFixed(1)}%` });
  if (d.indexes.fullTextCoverage < 1 || !d.indexes.online)
    out.push({
      action: 'checkFtsConsistency',
      reason: `full-text coverage ${(d.indexes.fullTextCoverage * 100).toFixed(1)}%, indexes ${d.indexes.online ? 'online' : 'not all online'}`,
    });
  if (d.storage.tombstoneRatio > 0.3)
    out.push({ action: 'triggerRetentionSweep', reason: `tombstones ${(d.storage.tombstoneRatio * 100).toFixed(1)}% of memories > 30%` });
  return out;
}

const SCOPE = (v: string) => `($namespace IS NULL OR ${v}.namespace = $namespace)`;

// Dead jobs get a fresh set of attempts; at most `limit` per run.
const REQUEUE_DEAD = `
MATCH (j:Job) WHERE j.status = 'dead' AND ${SCOPE('j')}
WITH j LIMIT $limit
SET j.status = 'pending', j.attempts = 0, j.availableAt = $now, j.updatedAt = $now, j.requeuedBy = 'maintenance'
RETURN count(j) AS n`;

const RELEASE_STALE = `
MATCH (j:Job) WHERE j.status = 'leased' AND j.leasedAt < $staleBefore AND ${SCOPE('j')}
WITH j LIMIT $limit
SET j.status = CASE WHEN j.attempts >= j.maxAttempts THEN 'dead' ELSE 'pending' END,
    j.error = 'lease expired (released by maintenance)', j.failedAt = $now, j.availableAt = $now,
    j.updatedAt = $now, j.leaseOwner = null, j.leasedAt = null
RETURN count(j) AS n`;

export async function requeueDeadJobs(executor: Executor, namespace: string | null, limit: number): Promise<number> {
  const [row] = await executor.write('maintenance.requeue-dead', REQUEUE_DEAD, {
    namespace,
    limit: neo4j.int(limit),
    now: new Date().toISOString(),
  });
  return Number(row?.n ?? 0);
}

export async function releaseStaleLeases(
  executor: Executor,
  namespace: string | null,
  leaseTimeoutMs: number,
  limit: number,
): Promise<number> {
  const now = Date.now();
  const [row] = await executor.write('maintenance.release-stale', RELEASE_STALE, {
    namespace,
    limit: neo4j.int(limit),
    now: new Date(now).toISOString(),
    staleBefore: new Date(now - leaseTimeoutMs).toISOString(),
  });
  return Number(row?.n ?? 0);
}
