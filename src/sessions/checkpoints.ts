import { randomUUID } from 'node:crypto';
import neo4j from 'neo4j-driver';
import type { Executor, TxWork } from '../db/index.js';
import { LimitExceededError, ValidationError } from '../errors.js';
import { redactStored } from '../redaction/redact-stored.js';
import { cleanText } from '../text/index.js';

/** Session checkpoints: writes 2.5 s apart merge (at most 20 queries, 10 remembers); 50 per session; pruned after 7 days. */
export const CHECKPOINTS = {
  triggers: ['periodic', 'pre_compaction', 'session_end', 'agent', 'explicit'] as const,
  /** Writes for one session this close together are merged into one checkpoint (a burst of triggers is one snapshot). */
  mergeWindowMs: 2_500,
  maxQueries: 20,
  maxRemembers: 10,
  maxPerSession: 50,
  retentionDays: 7,
  maxDigestChars: 10_000,
  maxItemChars: 500,
} as const;

export type CheckpointTrigger = (typeof CHECKPOINTS.triggers)[number];

export interface CheckpointInput {
  namespace: string;
  sessionId: string;
  trigger: CheckpointTrigger;
  digest: string;
  promptCount?: number | null;
  memoryQueries?: readonly string[] | null;
  recentRemembers?: readonly string[] | null;
  harness?: string | null;
  project?: string | null;
}

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

const RETURN = `c { .id, .namespace, .sessionId, .trigger, .digest, promptCount: coalesce(c.promptCount, 0),
  memoryQueries: coalesce(c.memoryQueries, []), recentRemembers: coalesce(c.recentRemembers, []), .harness, .project, .createdAt, .updatedAt }`;

// One session's writes queue on its lock, so merge-or-create and the cap see each other.
const LOCK = `MERGE (l:Lock {id: $lockId}) ON CREATE SET l.name = 'checkpoint lane' SET l._lock = true REMOVE l._lock RETURN l.id AS id`;

// A re-run of this write (lost COMMIT reply) finds its own id recorded and changes nothing.
const ALREADY = `MATCH (c:Checkpoint {namespace: $namespace, sessionId: $sessionId}) WHERE $writeId IN c.writeIds RETURN ${RETURN} AS checkpoint LIMIT 1`;

const MERGE_RECENT = `
MATCH (c:Checkpoint {namespace: $namespace, sessionId: $sessionId})
WHERE c.updatedAt >= $mergeAfter
WITH c ORDER BY c.updatedAt DESC LIMIT 1
WITH c, [q IN coalesce(c.memoryQueries, []) + $c.memoryQueries WHERE q IS NOT NULL] AS qs,
     [r IN coalesce(c.recentRemembers, []) + $c.recentRemembers WHERE r IS NOT NULL] AS rs
SET c.trigger = $c.trigger, c.digest = $c.digest, c.promptCount = coalesce(c.promptCount, 0) + $c.promptCount,
    c.memoryQueries = reduce(acc = [], q IN qs | CASE WHEN q IN acc OR size(acc) >= $maxQueries THEN acc ELSE acc + q END),
    c.recentRemembers = reduce(acc = [], r IN rs | CASE WHEN r IN acc OR size(acc) >= $maxRemembers THEN acc ELSE acc + r END),
    c.writeIds = coalesce(c.writeIds, []) + $writeId, c.updatedAt = $now
RETURN ${RETURN} AS checkpoint`;

const CREATE = `
CREATE (c:Checkpoint)
SET c = $c, c.id = $id, c.namespace = $namespace, c.sessionId = $sessionId, c.writeIds = [$writeId],
    c.name = $c.trigger + ' checkpoint', c.createdAt = $now, c.updatedAt = $now
RETURN ${RETURN} AS checkpoint`;

const CAP = `
MATCH (c:Checkpoint {namespace: $namespace, sessionId: $sessionId})
WITH c ORDER BY c.createdAt DESC, c.id DESC
SKIP $max
DETACH DELETE c`;

const LATEST = `
MATCH (c:Checkpoint {namespace: $namespace, sessionId: $sessionId})
WITH c ORDER BY c.createdAt DESC, c.id DESC LIMIT $limit
RETURN ${RETURN} AS checkpoint`;

const PRUNE = `
MATCH (c:Checkpoint) WHERE c.createdAt < $cutoff AND ($namespace IS NULL OR c.namespace = $namespace)
WITH c LIMIT $limit
DETACH DELETE c
RETURN count(*) AS deleted`;

function clean(items: readonly string[] | null | undefined, cap: number, field: string): string[] {
  const list = (items ?? []).map((s) => cleanText(s).trim()).filter(Boolean);
  if (list.length > 100) throw new LimitExceededError(`${field} holds at most 100 items`, { field });
  return [...new Set(list.map((s) => redactStored(s.slice(0, CHECKPOINTS.maxItemChars))))].slice(0, cap);
}

/** Stores a checkpoint (merged into the session's last one when written within the merge window), then enforces the per-session cap. */
export async function writeCheckpoint(executor: Executor, input: CheckpointInput, now = new Date()): Promise<CheckpointRecord> {
  return executor.writeTx('checkpoints.write', checkpointWork(input, now));
}

/**
 * The checkpoint write as transaction work, checked and with its ids made now, so another
 * transaction (a session's prompt that fires one) can run it as one of its own steps.
 */
export function checkpointWork(input: CheckpointInput, now = new Date()): TxWork<CheckpointRecord> {
  // Every string made well-formed (src/text) before its checks, like the memories it points at.
  const sessionId = cleanText(input.sessionId).trim();
  if (!sessionId || sessionId.length > 256) throw new ValidationError('sessionId must be 1–256 characters', { field: 'sessionId' });
  if (!CHECKPOINTS.triggers.includes(input.trigger))
    throw new ValidationError(`trigger must be one of ${CHECKPOINTS.triggers.join(', ')}`, { field: 'trigger' });
  const digest = cleanText(input.digest);
  if (digest.length > CHECKPOINTS.maxDigestChars)
    throw new LimitExceededError(`digest is longer than ${CHECKPOINTS.maxDigestChars} characters`, { field: 'digest' });
  const promptCount = input.promptCount ?? 0;
  if (!Number.isInteger(promptCount) || promptCount < 0)
    throw new ValidationError('promptCount must be a non-negative integer', { field: 'promptCount' });
  const c = {
    trigger: input.trigger,
    digest: redactStored(digest),
    promptCount: neo4j.int(promptCount),
    memoryQueries: clean(input.memoryQueries, CHECKPOINTS.maxQueries, 'memoryQueries'),
    recentRemembers: clean(input.recentRemembers, CHECKPOINTS.maxRemembers, 'recentRemembers'),
    harness: input.harness ? redactStored(cleanText(input.harness).slice(0, 64)) : null,
    project: input.project ? redactStored(cleanText(input.project).slice(0, 256)) : null,
  };
  const params = {
    namespace: input.namespace,
    sessionId: redactStored(sessionId),
    writeId: randomUUID(),
    id: randomUUID(),
    c,
    now: now.toISOString(),
    mergeAfter: new Date(now.getTime() - CHECKPOINTS.mergeWindowMs).toISOString(),
    maxQueries: CHECKPOINTS.maxQueries,
    maxRemembers: CHECKPOINTS.maxRemembers,
    max: neo4j.int(CHECKPOINTS.maxPerSession),
  };
  return async (tx) => {
    await tx.run(LOCK, { lockId: `checkpoint:${JSON.stringify([params.namespace, params.sessionId])}` });
    const [done] = await tx.run<{ checkpoint: CheckpointRecord }>(ALREADY, params);
    if (done) return done.checkpoint;
    const [merged] = await tx.run<{ checkpoint: CheckpointRecord }>(MERGE_RECENT, params);
    const written = merged ?? (await tx.run<{ checkpoint: CheckpointRecord }>(CREATE, params))[0]!;
    await tx.run(CAP, params);
    return written.checkpoint;
  };
}

export async function latestCheckpoints(
  executor: Executor,
  namespace: string,
  sessionId: string,
  limit: number,
): Promise<CheckpointRecord[]> {
  const rows = await executor.read<{ checkpoint: CheckpointRecord }>('checkpoints.latest', LATEST, {
    namespace,
    sessionId: redactStored(cleanText(sessionId).trim()),
    limit: neo4j.int(limit),
  });
  return rows.map((r) => r.checkpoint);
}

/** Hard-deletes checkpoints older than the retention window (strictly: no grace), a batch at a time. */
export async function pruneCheckpoints(executor: Executor, namespace: string | null, now = new Date(), limit = 500): Promise<number> {
  const [row] = await executor.write<{ deleted: number }>('checkpoints.prune', PRUNE, {
    namespace,
    cutoff: new Date(now.getTime() - CHECKPOINTS.retentionDays * 86_400_000).toISOString(),
    limit: neo4j.int(limit),
  });
  return Number(row?.deleted ?? 0);
}
