import neo4j from 'neo4j-driver';
import type { Executor, Row } from '../executor.js';

/**
 * Maintenance: the counts its health diagnostics read (queue, memories, chunks, search indexes)
 * and its two queue repairs, each over one namespace (`null`: every namespace) and bounded.
 */

const SCOPE = (v: string) => `($namespace IS NULL OR ${v}.namespace = $namespace)`;

// Counts by index seek where one exists; the coverage counts read what the indexes index: a live
// memory without content or namespace token is missing from the full-text index, a live memory's
// chunk without a vector from the vector index.
export const MAINTENANCE_JOB_COUNTS = `
MATCH (j:Job) WHERE ${SCOPE('j')}
RETURN count(j) AS total,
       count(CASE WHEN j.status = 'dead' THEN 1 END) AS dead,
       count(CASE WHEN j.status = 'leased' AND j.leasedAt < $staleBefore THEN 1 END) AS staleLeases`;

export const MAINTENANCE_MEMORY_COUNTS = `
MATCH (m:Memory) WHERE ${SCOPE('m')}
WITH count(m) AS memories,
     count(CASE WHEN m.deletedAt IS NOT NULL THEN 1 END) AS tombstones,
     count(CASE WHEN m.deletedAt IS NULL THEN 1 END) AS active,
     count(CASE WHEN m.deletedAt IS NULL AND m.content IS NOT NULL AND m.namespaceToken IS NOT NULL THEN 1 END) AS indexed
RETURN memories, tombstones, active, indexed`;

export const MAINTENANCE_CHUNK_COUNTS = `
MATCH (m:Memory)-[:HAS_CHUNK]->(c:Chunk) WHERE ${SCOPE('m')} AND m.deletedAt IS NULL
RETURN count(c) AS chunks, count(c.embedding) AS embedded`;

export const MAINTENANCE_SEARCH_INDEXES = `
SHOW INDEXES YIELD type, state WHERE type IN ['FULLTEXT', 'VECTOR']
RETURN count(*) AS total, count(CASE WHEN state = 'ONLINE' THEN 1 END) AS online`;

// Dead jobs get a fresh set of attempts; at most `limit` per run.
export const MAINTENANCE_REQUEUE_DEAD = `
MATCH (j:Job) WHERE j.status = 'dead' AND ${SCOPE('j')}
WITH j LIMIT $limit
SET j.status = 'pending', j.attempts = 0, j.availableAt = $now, j.updatedAt = $now, j.requeuedBy = 'maintenance',
    j.turn = coalesce(j.turn, 0)
RETURN count(j) AS n`;

export const MAINTENANCE_RELEASE_STALE = `
MATCH (j:Job) WHERE j.status = 'leased' AND j.leasedAt < $staleBefore AND ${SCOPE('j')}
WITH j LIMIT $limit
SET j.status = CASE WHEN j.attempts >= j.maxAttempts THEN 'dead' ELSE 'pending' END,
    j.error = 'lease expired (released by maintenance)', j.failedAt = $now, j.availableAt = $now,
    j.updatedAt = $now, j.leaseOwner = null, j.leasedAt = null
RETURN count(j) AS n`;

/** The raw count rows the diagnostics score (a missing row reads as zeros). */
export interface MaintenanceCounts {
  queue: Row | undefined;
  memories: Row | undefined;
  chunks: Row | undefined;
  indexes: Row | undefined;
}

/** The four counts, read concurrently; leases taken before `staleBefore` count as stale. */
export async function maintenanceCounts(executor: Executor, namespace: string | null, staleBefore: string): Promise<MaintenanceCounts> {
  const [[queue], [memories], [chunks], [indexes]] = await Promise.all([
    executor.read('maintenance.queue', MAINTENANCE_JOB_COUNTS, { namespace, staleBefore }),
    executor.read('maintenance.memories', MAINTENANCE_MEMORY_COUNTS, { namespace }),
    executor.read('maintenance.chunks', MAINTENANCE_CHUNK_COUNTS, { namespace }),
    executor.read('maintenance.indexes', MAINTENANCE_SEARCH_INDEXES),
  ]);
  return { queue, memories, chunks, indexes };
}

/** Dead jobs back to pending with fresh attempts, at most `limit`; returns how many. */
export async function maintenanceRequeueDead(executor: Executor, namespace: string | null, limit: number): Promise<number> {
  const [row] = await executor.write('maintenance.requeue-dead', MAINTENANCE_REQUEUE_DEAD, {
    namespace,
    limit: neo4j.int(limit),
    now: new Date().toISOString(),
  });
  return Number(row?.n ?? 0);
}

/** Leases older than the lease timeout released (dead when out of attempts), at most `limit`; returns how many. */
export async function maintenanceReleaseStale(
  executor: Executor,
  namespace: string | null,
  leaseTimeoutMs: number,
  limit: number,
): Promise<number> {
  const now = Date.now();
  const [row] = await executor.write('maintenance.release-stale', MAINTENANCE_RELEASE_STALE, {
    namespace,
    limit: neo4j.int(limit),
    now: new Date(now).toISOString(),
    staleBefore: new Date(now - leaseTimeoutMs).toISOString(),
  });
  return Number(row?.n ?? 0);
}
