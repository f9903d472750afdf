import { randomUUID } from 'node:crypto';
import neo4j from 'neo4j-driver';
import { DEFAULT_CHECKPOINT_RETENTION_DAYS } from '../config/index.js';
import type { Executor, TxWork } from '../db/index.js';
import { checkpointWriteWork, latestStoredCheckpoints, type CheckpointRecord } from '../db/index.js';
import { LimitExceededError, ValidationError } from '../errors.js';
import { redactStored } from '../redaction/index.js';
import { cleanText } from '../text/index.js';
import { clientEventId } from './event-ids.js';

/** Session checkpoints: writes 2.5 s apart merge (at most 20 queries, 10 remembers); 50 per session; pruned after 7 days. */
export const CHECKPOINTS = {
  triggers: ['periodic', 'pre_compaction', 'session_end', 'agent', 'explicit'] as const,
  /** Writes for one session this close together are merged into one checkpoint (a burst of triggers is one snapshot). */
  mergeWindowMs: 2_500,
  maxQueries: 20,
  maxRemembers: 10,
  maxPerSession: 50,
  retentionDays: DEFAULT_CHECKPOINT_RETENTION_DAYS,
  maxDigestChars: 10_000,
  maxItemChars: 500,
} as const;

export type { CheckpointRecord };
export { pruneCheckpoints } from '../db/index.js';

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
  /** The client's own id for this write: sent again after a lost answer, it changes nothing. */
  eventId?: string | null;
}

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
    writeId: input.eventId != null ? clientEventId(input.namespace, `checkpoint:${sessionId}`, input.eventId) : randomUUID(),
    id: randomUUID(),
    c,
    now: now.toISOString(),
    mergeAfter: new Date(now.getTime() - CHECKPOINTS.mergeWindowMs).toISOString(),
    maxQueries: CHECKPOINTS.maxQueries,
    maxRemembers: CHECKPOINTS.maxRemembers,
    max: neo4j.int(CHECKPOINTS.maxPerSession),
  };
  return checkpointWriteWork(params);
}

/** A session's newest checkpoints, newest first, by the session id a caller gives (cleaned and redacted as stored). */
export async function latestCheckpoints(
  executor: Executor,
  namespace: string,
  sessionId: string,
  limit: number,
): Promise<CheckpointRecord[]> {
  return latestStoredCheckpoints(executor, namespace, redactStored(cleanText(sessionId).trim()), limit);
}
