import neo4j from 'neo4j-driver';
import { DEFAULT_CHECKPOINT_RETENTION_DAYS } from '../../config/index.js';
import type { Executor, TxWork } from '../executor.js';

/** A session checkpoint as stored (`(:Checkpoint)`). */
export interface CheckpointRecord {
  id: string;
  namespace: string;
  sessionId: string;
  trigger: string;
  digest: string;
  promptCount: number;
  memoryQueries: string[];
  recentRemembers: string[];
  harness: string | null;
  project: string | null;
  createdAt: string;
  updatedAt: string;
}

const CHECKPOINT_RETURN = `c { .id, .namespace, .sessionId, .trigger, .digest, promptCount: coalesce(c.promptCount, 0),
  memoryQueries: coalesce(c.memoryQueries, []), recentRemembers: coalesce(c.recentRemembers, []), .harness, .project, .createdAt, .updatedAt }`;

// One session's writes queue on its lock, so merge-or-create and the cap see each other.
export const CHECKPOINT_LOCK = `MERGE (l:Lock {id: $lockId}) ON CREATE SET l.name = 'checkpoint lane' SET l._lock = true REMOVE l._lock RETURN l.id AS id`;

// A re-run of this write (lost COMMIT reply) finds its own id recorded and changes nothing.
export const CHECKPOINT_ALREADY = `MATCH (c:Checkpoint {namespace: $namespace, sessionId: $sessionId}) WHERE $writeId IN c.writeIds RETURN ${CHECKPOINT_RETURN} AS checkpoint LIMIT 1`;

export const CHECKPOINT_MERGE_RECENT = `
MATCH (c:Checkpoint {namespace: $namespace, sessionId: $sessionId})
WHERE c.updatedAt >= $mergeAfter
WITH c ORDER BY c.updatedAt DESC LIMIT 1
WITH c, [q IN coalesce(c.memoryQueries, []) + $c.memoryQueries WHERE q IS NOT NULL] AS qs,
     [r IN coalesce(c.recentRemembers, []) + $c.recentRemembers WHERE r IS NOT NULL] AS rs
SET c.trigger = $c.trigger, c.digest = $c.digest, c.promptCount = coalesce(c.promptCount, 0) + $c.promptCount,
    c.memoryQueries = reduce(acc = [], q IN qs | CASE WHEN q IN acc OR size(acc) >= $maxQueries THEN acc ELSE acc + q END),
    c.recentRemembers = reduce(acc = [], r IN rs | CASE WHEN r IN acc OR size(acc) >= $maxRemembers THEN acc ELSE acc + r END),
    c.writeIds = coalesce(c.writeIds, []) + $writeId, c.updatedAt = $now
RETURN ${CHECKPOINT_RETURN} AS checkpoint`;

export const CHECKPOINT_CREATE = `
CREATE (c:Checkpoint)
SET c = $c, c.id = $id, c.namespace = $namespace, c.sessionId = $sessionId, c.writeIds = [$writeId],
    c.name = $c.trigger + ' checkpoint', c.createdAt = $now, c.updatedAt = $now
RETURN ${CHECKPOINT_RETURN} AS checkpoint`;

export const CHECKPOINT_CAP = `
MATCH (c:Checkpoint {namespace: $namespace, sessionId: $sessionId})
WITH c ORDER BY c.createdAt DESC, c.id DESC
SKIP $max
DETACH DELETE c`;

export const CHECKPOINT_LATEST = `
MATCH (c:Checkpoint {namespace: $namespace, sessionId: $sessionId})
WITH c ORDER BY c.createdAt DESC, c.id DESC LIMIT $limit
RETURN ${CHECKPOINT_RETURN} AS checkpoint`;

export const CHECKPOINT_PRUNE = `
MATCH (c:Checkpoint) WHERE c.createdAt < $cutoff AND ($namespace IS NULL OR c.namespace = $namespace)
WITH c LIMIT $limit
DETACH DELETE c
RETURN count(*) AS deleted`;

/** Parameters of one checkpoint write, checked, redacted and with its ids made before the transaction. */
export interface CheckpointWriteParams extends Record<string, unknown> {
  namespace: string;
  sessionId: string;
  writeId: string;
  id: string;
  c: Record<string, unknown>;
  now: string;
  mergeAfter: string;
  maxQueries: number;
  maxRemembers: number;
  max: ReturnType<typeof neo4j.int>;
}

/** Merge-or-create under the session's lock, then the per-session cap; a re-run finds its write id and changes nothing. */
export function checkpointWriteWork(params: CheckpointWriteParams): TxWork<CheckpointRecord> {
  return async (tx) => {
    await tx.run(CHECKPOINT_LOCK, { lockId: `checkpoint:${JSON.stringify([params.namespace, params.sessionId])}` });
    const [done] = await tx.run<{ checkpoint: CheckpointRecord }>(CHECKPOINT_ALREADY, params);
    if (done) return done.checkpoint;
    const [merged] = await tx.run<{ checkpoint: CheckpointRecord }>(CHECKPOINT_MERGE_RECENT, params);
    const written = merged ?? (await tx.run<{ checkpoint: CheckpointRecord }>(CHECKPOINT_CREATE, params))[0]!;
    await tx.run(CHECKPOINT_CAP, params);
    return written.checkpoint;
  };
}

/** A session's newest checkpoints, newest first (`sessionId` as stored: cleaned and redacted). */
export async function latestStoredCheckpoints(
  executor: Executor,
  namespace: string,
  sessionId: string,
  limit: number,
): Promise<CheckpointRecord[]> {
  const rows = await executor.read<{ checkpoint: CheckpointRecord }>('checkpoints.latest', CHECKPOINT_LATEST, {
    namespace,
    sessionId,
    limit: neo4j.int(limit),
  });
  return rows.map((r) => r.checkpoint);
}

/** Hard-deletes checkpoints older than the retention window (strictly: no grace), a batch at a time. */
export async function pruneCheckpoints(executor: Executor, namespace: string | null, now = new Date(), limit = 500): Promise<number> {
  const [row] = await executor.write<{ deleted: number }>('checkpoints.prune', CHECKPOINT_PRUNE, {
    namespace,
    cutoff: new Date(now.getTime() - DEFAULT_CHECKPOINT_RETENTION_DAYS * 86_400_000).toISOString(),
    limit: neo4j.int(limit),
  });
  return Number(row?.deleted ?? 0);
}
