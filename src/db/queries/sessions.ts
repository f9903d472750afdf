import neo4j from 'neo4j-driver';
import type { Executor, TxRunner } from '../executor.js';
import { recordEvents } from '../history.js';
import { enqueue, jobName } from '../jobs/index.js';
import { MEMORY_RETURN, type MemoryRecord } from '../records.js';

/**
 * Sessions: one (:Session) per (namespace, sessionId), opened by startSession, counting the
 * prompts and tool results that name it, ended by endSession or the idle sweep. Every write is
 * safe to run twice: events carry an id made before the transaction (kept in a short list on the
 * session, counters move only when it is new), the session-end job and audit event have ids
 * derived from the session, and everything else is SET to values.
 */

export interface SessionRecord {
  id: string;
  namespace: string;
  sessionId: string;
  status: 'open' | 'ended';
  startedAt: string;
  lastActivityAt: string;
  endedAt: string | null;
  endReason: string | null;
  harness: string | null;
  project: string | null;
  prompts: number;
  toolResults: number;
  checkpoints: number;
  checkpointPrompts: number;
  lastCheckpointAt: string;
  lastCheckpointEvent: string | null;
  recentQueries: string[];
  recentRemembers: string[];
  injectedIds: string[];
  keywordHits: string[];
  jobId: string | null;
  summaryRequest: string | null;
  summaryInvestigated: string | null;
  summaryLearned: string | null;
  summaryNextSteps: string | null;
  summarizer: string | null;
  summarizedAt: string | null;
  /** The files the session changed (its file-edit memories, most recent first), as its summary lists them. */
  summaryFiles: string[];
  /** Files changed beyond those listed. */
  summaryFilesMore: number;
  /** The agent's last report of the session (its last answer), '' when none was stored. */
  summaryCompleted: string | null;
  continuityScore: number | null;
  continuityUsed: number | null;
  continuityRelevance: number[];
  feedbackApplied: boolean | null;
}

export const SESSION_RETURN = (s: string) => `${s} {
  .id, .namespace, .sessionId, .status, .startedAt, .lastActivityAt, .endedAt, .endReason, .harness, .project,
  prompts: coalesce(${s}.prompts, 0), toolResults: coalesce(${s}.toolResults, 0), checkpoints: coalesce(${s}.checkpoints, 0),
  checkpointPrompts: coalesce(${s}.checkpointPrompts, 0), .lastCheckpointAt, .lastCheckpointEvent,
  recentQueries: coalesce(${s}.recentQueries, []), recentRemembers: coalesce(${s}.recentRemembers, []),
  injectedIds: coalesce(${s}.injectedIds, []), keywordHits: coalesce(${s}.keywordHits, []), .jobId,
  .summaryRequest, .summaryInvestigated, .summaryLearned, .summaryNextSteps, .summarizer, .summarizedAt,
  summaryFiles: coalesce(${s}.summaryFiles, []), summaryFilesMore: coalesce(${s}.summaryFilesMore, 0), .summaryCompleted,
  .continuityScore, .continuityUsed, continuityRelevance: coalesce(${s}.continuityRelevance, []), .feedbackApplied }`;

/** Caps of the lists a session keeps (each list keeps its newest entries). */
export const SESSION_LISTS = { queries: 20, remembers: 10, eventIds: 128, injected: 100, keywordHits: 200 } as const;

// A repeated start (or its re-run) unites the injected ids; an ended session stays ended.
export const START = `
MERGE (s:Session {namespace: $namespace, sessionId: $sessionId})
  ON CREATE SET s.id = $id, s.name = 'session ' + left($sessionId, 40), s.status = 'open', s.startedAt = $now,
    s.lastActivityAt = $now, s.lastCheckpointAt = $now, s.prompts = 0, s.toolResults = 0, s.checkpoints = 0,
    s.checkpointPrompts = 0, s.harness = $harness, s.project = $project
SET s.injectedIds = CASE WHEN s.status = 'open'
    THEN reduce(acc = coalesce(s.injectedIds, []), i IN $injectedIds | CASE WHEN i IN acc OR size(acc) >= $maxInjected THEN acc ELSE acc + i END)
    ELSE s.injectedIds END
RETURN ${SESSION_RETURN('s')} AS session`;

export const GET = `MATCH (s:Session {namespace: $namespace, sessionId: $sessionId}) RETURN ${SESSION_RETURN('s')} AS session`;

// `fresh`: the session is open and this event is new; only then do the counters move. The session's
// write lock is taken first, THEN its event ids are read: the same event sent twice at once (a
// re-send while the first is still running) is counted by whichever commits first, once.
export const EVENT = `
MATCH (s:Session {namespace: $namespace, sessionId: $sessionId})
SET s._lock = true
REMOVE s._lock
WITH s, s.status = 'open' AND NOT $eventId IN coalesce(s.eventIds, []) AS fresh, $eventId IN coalesce(s.eventIds, []) AS replayed
CALL (s, fresh) {
  WITH s WHERE fresh
  SET s.prompts = coalesce(s.prompts, 0) + $prompt, s.toolResults = coalesce(s.toolResults, 0) + $tool,
      s.recentQueries = CASE WHEN $query IS NULL THEN coalesce(s.recentQueries, []) ELSE (coalesce(s.recentQueries, []) + $query)[-$maxQueries..] END,
      s.recentRemembers = CASE WHEN $remembered IS NULL THEN coalesce(s.recentRemembers, []) ELSE (coalesce(s.recentRemembers, []) + $remembered)[-$maxRemembers..] END,
      s.keywordHits = reduce(acc = coalesce(s.keywordHits, []), i IN $keywordHits | CASE WHEN i IN acc OR size(acc) >= $maxHits THEN acc ELSE acc + i END),
      s.eventIds = (coalesce(s.eventIds, []) + $eventId)[-$maxEventIds..],
      s.lastActivityAt = $now
}
RETURN fresh, replayed, ${SESSION_RETURN('s')} AS session`;

// Claims the checkpoint for this event (inside the event's transaction).
export const MARK_CHECKPOINT = `
MATCH (s:Session {namespace: $namespace, sessionId: $sessionId})
SET s.checkpointPrompts = s.prompts, s.lastCheckpointAt = $now, s.checkpoints = coalesce(s.checkpoints, 0) + 1,
    s.lastCheckpointEvent = $eventId
RETURN ${SESSION_RETURN('s')} AS session`;

// `$idleBefore` (the idle sweep): only a session still idle when the lock is held is ended.
export const END = `
MATCH (s:Session {namespace: $namespace, sessionId: $sessionId})
WITH s, s.status = 'open' AND ($idleBefore IS NULL OR s.lastActivityAt < $idleBefore) AS closing
CALL (s, closing) {
  WITH s WHERE closing
  SET s.status = 'ended', s.endedAt = $now, s.endReason = $reason, s.jobId = $jobId
}
RETURN closing, ${SESSION_RETURN('s')} AS session`;

export const IDLE = `
MATCH (s:Session {status: 'open'})
WHERE s.lastActivityAt < $idleBefore AND ($namespaces IS NULL OR s.namespace IN $namespaces)
WITH s ORDER BY s.lastActivityAt LIMIT $limit
RETURN s.namespace AS namespace, s.sessionId AS sessionId`;

// Pinned memories and constraints (decisions, or behind an active constraint), pinned first.
export const PINNED_AND_CONSTRAINTS = `
MATCH (m:Memory {namespace: $namespace})
WHERE m.deletedAt IS NULL AND m.supersededAt IS NULL AND m.compressedAt IS NULL
  AND (m.pinned = true OR m.type = 'decision' OR EXISTS { (m)<-[:FROM]-(:Attribute {kind: 'constraint', status: 'active'}) })
WITH m ORDER BY coalesce(m.pinned, false) DESC, m.importance DESC, m.createdAt DESC LIMIT $limit
RETURN ${MEMORY_RETURN('m')} AS memory`;

// The namespace's preferences and procedures (the design's "always include procedural memories"),
// most important, then newest, first.
export const PREFERENCES = `
MATCH (m:Memory {namespace: $namespace})
WHERE m.deletedAt IS NULL AND m.supersededAt IS NULL AND m.compressedAt IS NULL
  AND m.type IN $types AND NOT m.id IN $exclude
WITH m ORDER BY m.importance DESC, m.createdAt DESC LIMIT $limit
RETURN ${MEMORY_RETURN('m')} AS memory`;

// Without a query: the most important, then most recently used, memories not flagged stale.
export const BEST = `
MATCH (m:Memory {namespace: $namespace})
WHERE m.deletedAt IS NULL AND m.supersededAt IS NULL AND m.compressedAt IS NULL AND m.stale IS NULL
  AND NOT m.id IN $exclude
WITH m ORDER BY m.importance DESC, coalesce(m.lastAccessed, m.createdAt) DESC LIMIT $limit
RETURN ${MEMORY_RETURN('m')} AS memory`;

// The newest checkpoint of the namespace: this session's own when it has one (a resumed session).
export const LATEST_CHECKPOINT = `
MATCH (c:Checkpoint {namespace: $namespace})
WITH c ORDER BY CASE WHEN c.sessionId = $sessionId THEN 0 ELSE 1 END, c.updatedAt DESC LIMIT 1
RETURN c { .id, .sessionId, .trigger, .digest, .updatedAt } AS checkpoint`;

export const SESSION_MEMORIES = `
MATCH (m:Memory {namespace: $namespace, sessionId: $sessionId})
WHERE m.deletedAt IS NULL
WITH m ORDER BY m.createdAt LIMIT $limit
RETURN m.id AS id, m.content AS content, m.type AS type`;

// The newest summarized session of the namespace besides this one: the start context leads with it.
export const PREVIOUS_SUMMARIZED = `
MATCH (s:Session {namespace: $namespace})
WHERE s.summarizedAt IS NOT NULL AND s.sessionId <> $sessionId
WITH s ORDER BY s.summarizedAt DESC LIMIT 1
RETURN ${SESSION_RETURN('s')} AS session`;

// What a session stored as new (its tool results and remembers, its summary memory), most important first.
export const SESSION_LESSONS = `
MATCH (m:Memory {namespace: $namespace, sessionId: $sessionId})
WHERE m.deletedAt IS NULL AND m.supersededAt IS NULL AND m.compressedAt IS NULL
WITH m ORDER BY m.importance DESC, m.createdAt DESC LIMIT $limit
RETURN ${MEMORY_RETURN('m')} AS memory`;

// A session's file-edit records (the agent hooks' tag), newest first; by creation only, so a re-run
// of the session-end job reads them in the same order.
export const SESSION_FILE_EDITS = `
MATCH (m:Memory {namespace: $namespace, sessionId: $sessionId})
WHERE m.deletedAt IS NULL AND $tag IN m.tags
WITH m ORDER BY m.createdAt DESC, m.id LIMIT $limit
RETURN m.content AS content, m.metadata AS metadata`;

export const MEMORY_TEXTS = `
UNWIND $ids AS id
MATCH (m:Memory {id: id, namespace: $namespace})
RETURN m.id AS id, m.content AS content`;

// Values only: a re-run sets the same ones. Its audit event's id is derived from the session.
export const SAVE_SUMMARY = `
MATCH (s:Session {namespace: $namespace, sessionId: $sessionId})
SET s.summaryRequest = $summary.request, s.summaryInvestigated = $summary.investigated, s.summaryLearned = $summary.learned,
    s.summaryNextSteps = $summary.nextSteps, s.summarizer = $summary.summarizer, s.summarizedAt = $now,
    s.summaryFiles = $work.files, s.summaryFilesMore = $work.moreFiles, s.summaryCompleted = $work.completed,
    s.continuityScore = $continuity.score, s.continuityUsed = $continuity.used, s.continuityRelevance = $continuity.relevance,
    s.feedbackApplied = $feedbackApplied
RETURN ${SESSION_RETURN('s')} AS session`;

export const STATS = `
CALL () {
  MATCH (s:Session {namespace: $namespace})
  RETURN count(CASE WHEN s.status = 'open' THEN 1 END) AS open, count(CASE WHEN s.status = 'ended' THEN 1 END) AS ended,
         count(s.summarizedAt) AS summarized, sum(coalesce(s.checkpoints, 0)) AS checkpoints
}
CALL () {
  MATCH (j:Job {namespace: $namespace, kind: 'session_end'})
  RETURN count(CASE WHEN j.status IN ['pending', 'leased'] THEN 1 END) AS pendingJobs,
         count(CASE WHEN j.status = 'completed' THEN 1 END) AS completedJobs, count(CASE WHEN j.status = 'dead' THEN 1 END) AS deadJobs
}
RETURN open, ended, summarized, checkpoints, pendingJobs, completedJobs, deadJobs`;

const int = (n: number) => neo4j.int(n);

export interface StartParams {
  id: string;
  namespace: string;
  sessionId: string;
  harness: string | null;
  project: string | null;
  injectedIds: string[];
  now: string;
}

export async function startSessionRecord(executor: Executor, p: StartParams): Promise<SessionRecord> {
  const [row] = await executor.write<{ session: SessionRecord }>('sessions.start', START, {
    ...p,
    maxInjected: int(SESSION_LISTS.injected),
  });
  return row!.session;
}

export async function getSession(executor: Executor, namespace: string, sessionId: string): Promise<SessionRecord | null> {
  const [row] = await executor.read<{ session: SessionRecord }>('sessions.get', GET, { namespace, sessionId });
  return row?.session ?? null;
}

export interface EventParams {
  namespace: string;
  sessionId: string;
  eventId: string;
  prompt: number;
  tool: number;
  query: string | null;
  remembered: string | null;
  keywordHits: string[];
  now: string;
}

/** Runs inside the caller's transaction: the event, then (the caller decides) the checkpoint. */
export async function recordEvent(
  tx: TxRunner,
  p: EventParams,
): Promise<{ fresh: boolean; replayed: boolean; session: SessionRecord } | null> {
  const [row] = await tx.run<{ fresh: boolean; replayed: boolean; session: SessionRecord }>(EVENT, {
    ...p,
    maxQueries: int(SESSION_LISTS.queries),
    maxRemembers: int(SESSION_LISTS.remembers),
    maxEventIds: int(SESSION_LISTS.eventIds),
    maxHits: int(SESSION_LISTS.keywordHits),
  });
  return row ?? null;
}

export async function markCheckpoint(
  tx: TxRunner,
  p: { namespace: string; sessionId: string; eventId: string; now: string },
): Promise<SessionRecord> {
  const [row] = await tx.run<{ session: SessionRecord }>(MARK_CHECKPOINT, p);
  return row!.session;
}

export interface EndParams {
  namespace: string;
  sessionId: string;
  reason: string;
  jobId: string;
  eventId: string;
  maxAttempts: number;
  actor: string;
  idleBefore: string | null;
  now: string;
}

export async function endSessionRecord(tx: TxRunner, p: EndParams): Promise<{ closing: boolean; session: SessionRecord } | null> {
  const [row] = await tx.run<{ closing: boolean; session: SessionRecord }>(END, { ...p });
  return row ?? null;
}

/** The session-end job (one per session: its id is derived from it) and the audit event. */
export async function queueEndJob(tx: TxRunner, p: EndParams & { details: Record<string, unknown> }): Promise<void> {
  await enqueue(
    tx,
    [
      {
        id: p.jobId,
        kind: 'session_end',
        namespace: p.namespace,
        sessionId: p.sessionId,
        name: jobName('session end', p.sessionId, 40),
        maxAttempts: p.maxAttempts,
      },
    ],
    p.now,
  );
  await recordEvents(
    tx,
    [
      {
        id: p.eventId,
        event: 'session.ended',
        name: 'session ended',
        about: { namespace: p.namespace },
        actor: p.actor,
        outcome: p.reason,
        details: p.details,
      },
    ],
    p.now,
  );
}

export async function idleSessions(
  executor: Executor,
  idleBefore: string,
  namespaces: readonly string[] | null,
  limit: number,
): Promise<Array<{ namespace: string; sessionId: string }>> {
  return executor.read('sessions.idle', IDLE, { idleBefore, namespaces: namespaces ? [...namespaces] : null, limit: int(limit) });
}

export async function pinnedAndConstraints(executor: Executor, namespace: string, limit: number): Promise<MemoryRecord[]> {
  const rows = await executor.read<{ memory: MemoryRecord }>('sessions.context.pinned', PINNED_AND_CONSTRAINTS, {
    namespace,
    limit: int(limit),
  });
  return rows.map((r) => r.memory);
}

export async function preferenceMemories(
  executor: Executor,
  namespace: string,
  p: { types: readonly string[]; exclude: readonly string[]; limit: number },
): Promise<MemoryRecord[]> {
  const rows = await executor.read<{ memory: MemoryRecord }>('sessions.context.preferences', PREFERENCES, {
    namespace,
    types: [...p.types],
    exclude: [...p.exclude],
    limit: int(p.limit),
  });
  return rows.map((r) => r.memory);
}

export async function bestMemories(
  executor: Executor,
  namespace: string,
  exclude: readonly string[],
  limit: number,
): Promise<MemoryRecord[]> {
  const rows = await executor.read<{ memory: MemoryRecord }>('sessions.context.best', BEST, {
    namespace,
    exclude: [...exclude],
    limit: int(limit),
  });
  return rows.map((r) => r.memory);
}

export interface CheckpointDigest {
  id: string;
  sessionId: string;
  trigger: string;
  digest: string;
  updatedAt: string;
}

export async function latestNamespaceCheckpoint(
  executor: Executor,
  namespace: string,
  sessionId: string,
): Promise<CheckpointDigest | null> {
  const [row] = await executor.read<{ checkpoint: CheckpointDigest }>('sessions.context.checkpoint', LATEST_CHECKPOINT, {
    namespace,
    sessionId,
  });
  return row?.checkpoint ?? null;
}

export async function sessionMemories(
  executor: Executor,
  namespace: string,
  sessionId: string,
  limit: number,
): Promise<Array<{ id: string; content: string; type: string }>> {
  return executor.read('sessions.memories', SESSION_MEMORIES, { namespace, sessionId, limit: int(limit) });
}

/** The newest summarized session of the namespace other than `sessionId`, if any. */
export async function previousSummarizedSession(executor: Executor, namespace: string, sessionId: string): Promise<SessionRecord | null> {
  const [row] = await executor.read<{ session: SessionRecord }>('sessions.context.previous', PREVIOUS_SUMMARIZED, { namespace, sessionId });
  return row?.session ?? null;
}

/** The live memories a session stored (tool results, remembers, its summary), most important first. */
export async function sessionLessons(executor: Executor, namespace: string, sessionId: string, limit: number): Promise<MemoryRecord[]> {
  const rows = await executor.read<{ memory: MemoryRecord }>('sessions.context.lessons', SESSION_LESSONS, {
    namespace,
    sessionId,
    limit: int(limit),
  });
  return rows.map((r) => r.memory);
}

/** A session's records tagged `tag` (its file edits), newest first: their text and metadata. */
export async function sessionTagged(
  executor: Executor,
  p: { namespace: string; sessionId: string; tag: string; limit: number },
): Promise<Array<{ content: string; metadata: string | null }>> {
  return executor.read('sessions.file-edits', SESSION_FILE_EDITS, { ...p, limit: int(p.limit) });
}

export async function memoryTexts(
  executor: Executor,
  namespace: string,
  ids: readonly string[],
): Promise<Array<{ id: string; content: string }>> {
  if (ids.length === 0) return [];
  return executor.read('sessions.memory-texts', MEMORY_TEXTS, { namespace, ids: [...ids] });
}

export interface SummaryParams {
  namespace: string;
  sessionId: string;
  eventId: string;
  actor: string;
  summary: { request: string; investigated: string; learned: string; nextSteps: string; summarizer: string };
  work: { files: string[]; moreFiles: number; completed: string };
  continuity: { score: number; used: number; relevance: number[] };
  feedbackApplied: boolean;
  details: Record<string, unknown>;
  now: string;
}

/** The summary and its `session.summarized` event, in one transaction. */
export async function saveSummary(executor: Executor, p: SummaryParams): Promise<SessionRecord | null> {
  return executor.writeTx('sessions.summary', async (tx) => {
    const [row] = await tx.run<{ session: SessionRecord }>(SAVE_SUMMARY, {
      ...p,
      continuity: { ...p.continuity, used: int(p.continuity.used) },
      work: { ...p.work, moreFiles: int(p.work.moreFiles) },
    });
    if (!row) return null;
    await recordEvents(
      tx,
      [
        {
          id: p.eventId,
          event: 'session.summarized',
          name: 'session summarized',
          about: { namespace: p.namespace },
          actor: p.actor,
          outcome: p.summary.summarizer,
          details: p.details,
        },
      ],
      p.now,
    );
    return row.session;
  });
}

export type SessionStats = {
  open: number;
  ended: number;
  summarized: number;
  checkpoints: number;
  pendingJobs: number;
  completedJobs: number;
  deadJobs: number;
};

export async function sessionStats(executor: Executor, namespace: string): Promise<SessionStats> {
  const [row] = await executor.read<SessionStats>('sessions.stats', STATS, { namespace });
  return row!;
}

export const JOB_SESSION = `MATCH (j:Job {id: $jobId}) RETURN j.namespace AS namespace, j.sessionId AS sessionId`;

export const JOB_STATE = `MATCH (j:Job {id: $jobId}) RETURN j.status AS status, j.result AS result, j.error AS error`;

export async function jobSession(executor: Executor, jobId: string): Promise<{ namespace: string; sessionId: string | null } | null> {
  const [row] = await executor.read<{ namespace: string; sessionId: string | null }>('sessions.job', JOB_SESSION, { jobId });
  return row ?? null;
}

export async function jobState(
  executor: Executor,
  jobId: string,
): Promise<{ status: string; result: string | null; error: string | null } | null> {
  const [row] = await executor.read<{ status: string; result: string | null; error: string | null }>('sessions.job-state', JOB_STATE, {
    jobId,
  });
  return row ?? null;
}
