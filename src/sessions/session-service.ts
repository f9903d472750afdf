import { randomUUID } from 'node:crypto';
import type { Executor } from '../db/index.js';
import { derivedId } from '../db/index.js';
import type { MemoryRecord } from '../db/index.js';
import {
  bestMemories,
  endSessionRecord,
  getSession,
  idleSessions,
  latestNamespaceCheckpoint,
  markCheckpoint,
  pinnedAndConstraints,
  preferenceMemories,
  previousSummarizedSession,
  queueEndJob,
  recordEvent,
  sessionLessons,
  sessionStats,
  startSessionRecord,
  type SessionRecord,
  type SessionStats,
  type TranscriptRecord,
} from '../db/index.js';
import { ConflictError, LimitExceededError, NotFoundError, ValidationError } from '../errors.js';
import type { Logger } from '../logger.js';
import { redactStored } from '../redaction/index.js';
import { cleanText } from '../text/index.js';
import { checkpointWork, latestCheckpoints, writeCheckpoint, type CheckpointInput, type CheckpointRecord } from './session-checkpoints.js';
import { clientEventId } from './event-ids.js';
import { sessionTranscripts } from './transcript-reads.js';
import { saveTranscript } from './session-transcripts.js';
import { checkpointDigest, clipLine, fitSections, recoveryDigest, type CheckpointReason } from './digest.js';
import { filesLines, startSections, type ContextSection } from './start-context.js';
import { readChangedFiles } from './session-work.js';

export interface SessionSettings {
  enabled: boolean;
  checkpointPrompts: number;
  checkpointIntervalMs: number;
  recoveryBudgetChars: number;
  startBudgetChars: number;
  idleTimeoutMs: number;
  globalNamespace: string | null;
  maxJobAttempts: number;
  maxTranscriptChars: number;
}

/** The recall a start-of-session context asks when it is given a query (RecallService.recall). */
export interface ContextRecall {
  recall(request: {
    query: string;
    namespace: string;
    limit: number;
    tokenBudget: null;
    trackAccess: boolean;
  }): Promise<{ items: Array<{ memory: MemoryRecord }> }>;
}

/** Memories of each kind a start-of-session context considers (before the character budget). */
export const CONTEXT_LIMITS = { pinned: 20, preferences: 10, project: 20, global: 10, lessons: 5 } as const;
/** The memory types the start context lists as preferences (the recall budget's priority types). */
const PREFERENCE_TYPES = ['preference', 'procedural'] as const;
/** The tag of a session's summary memory (written by the session-end job). */
export const SESSION_SUMMARY_TAG = 'session-summary';
/** Characters of a checkpoint's digest as stored. */
export const CHECKPOINT_DIGEST_CHARS = 2_000;
export const MAX_SESSION_ID_CHARS = 256;
/** Prompts and remembers are kept on the session cut to this many characters. */
const EVENT_TEXT_CHARS = 300;
/** A fixed base: the ids of a session's end job and audit event are the same in every process. */
const SESSION_ID_BASE = '3a8c1e52-6b0d-4e7f-a1c9-sessionend00';

export interface StartInput {
  namespace: string;
  sessionId?: string | null;
  /** What the session is about (the first prompt): the project memories are recalled for it. */
  query?: string | null;
  maxChars?: number | null;
  harness?: string | null;
  project?: string | null;
  /** Whether the caller may read the global namespace (its memories follow the project's). */
  canReadGlobal: boolean;
}

export type { ContextSection };

export interface StartResult {
  session: SessionRecord;
  context: string;
  chars: number;
  maxChars: number;
  sections: ContextSection[];
  /** The namespace's preferences and procedures the context lists (most important first; pinned ones are under pinned). */
  preferences: MemoryRecord[];
  /** Lines of memories left out because the budget ran out. */
  omitted: number;
  checkpointId: string | null;
}

export interface ObserveInput {
  namespace: string;
  sessionId: string;
  kind: 'prompt' | 'tool';
  /** A prompt's text (a recall query). */
  query?: string | null;
  /** A tool result's text (a remembered memory). */
  remembered?: string | null;
  /** Memories the session's recall found by keyword (aspect feedback at session end). */
  keywordHits?: readonly string[];
  /**
   * The client's own id for this event (a hook's journal entry): sent again after a lost answer,
   * it is applied once. Without it every call is a new event.
   */
  eventId?: string | null;
}

export interface ObserveResult {
  session: SessionRecord;
  /** The checkpoint this event fired, if it fired one. */
  checkpoint: CheckpointRecord | null;
}

export interface EndResult {
  session: SessionRecord;
  /** False when the session had already ended (nothing changed). */
  ended: boolean;
}

export interface RecoverResult {
  session: SessionRecord;
  digest: string;
  chars: number;
  budget: number;
  omitted: number;
  checkpointId: string | null;
}

/** The session id as sessions, checkpoints and memories store it (well-formed, trimmed, redacted). */
export function sessionKey(raw: string): string {
  const trimmed = cleanText(raw).trim();
  if (!trimmed || trimmed.length > MAX_SESSION_ID_CHARS)
    throw new ValidationError(`sessionId must be 1–${MAX_SESSION_ID_CHARS} characters`, { field: 'sessionId' });
  return redactStored(trimmed);
}

function budget(value: number | null | undefined, fallback: number, min: number, max: number, field: string): number {
  if (value == null) return fallback;
  if (!Number.isInteger(value) || value < min || value > max)
    throw new LimitExceededError(`${field} must be an integer from ${min} to ${max}`, { field });
  return value;
}

/** A string as a session keeps it: well-formed, on one line, cut, redacted; null when empty. */
function storedText(text: string | null | undefined, max: number): string | null {
  const line = text ? clipLine(cleanText(text), max) : '';
  return line ? redactStored(line) : null;
}

/**
 * Sessions that look after themselves: a bounded context at start, prompts and tool results
 * counted as they arrive with periodic checkpoints (every N prompts or M minutes), a recovery
 * digest within a budget, and an end (asked for, or idle) that queues the session-end job.
 */
export class SessionService {
  constructor(
    private readonly executor: Executor,
    private readonly recall: ContextRecall,
    readonly settings: SessionSettings,
    private readonly logger: Logger,
  ) {}

  async start(input: StartInput): Promise<StartResult> {
    const sessionId = sessionKey(input.sessionId ?? randomUUID());
    const maxChars = budget(input.maxChars, this.settings.startBudgetChars, 200, 40_000, 'maxChars');
    const existing = await getSession(this.executor, input.namespace, sessionId);
    if (existing?.status === 'ended') throw new ConflictError(`session ${sessionId} has ended; start a new one`, { field: 'sessionId' });

    const query = input.query?.trim() ? input.query.trim() : null;
    const previous = await this.previousSession(input.namespace, sessionId);
    const pinned = await pinnedAndConstraints(this.executor, input.namespace, CONTEXT_LIMITS.pinned);
    const preferences = await preferenceMemories(this.executor, input.namespace, {
      types: PREFERENCE_TYPES,
      exclude: pinned.map((m) => m.id),
      limit: CONTEXT_LIMITS.preferences,
    });
    const checkpoint = await latestNamespaceCheckpoint(this.executor, input.namespace, sessionId);
    const shown = new Set([...pinned.map((m) => m.id), ...preferences.map((m) => m.id), ...(previous?.memoryIds ?? [])]);
    const lessons = previous?.lessons.filter((m) => !pinned.some((p) => p.id === m.id)) ?? [];
    const project = await this.best(input.namespace, query, [...shown], CONTEXT_LIMITS.project);
    const globalNs = this.settings.globalNamespace;
    const global =
      globalNs && globalNs !== input.namespace && input.canReadGlobal ? await this.best(globalNs, query, [], CONTEXT_LIMITS.global) : [];
    // The previous session's end checkpoint says less than its summary: shown only when it is this session's own, or no summary is.
    const showCheckpoint = checkpoint && (checkpoint.sessionId === sessionId || checkpoint.sessionId !== previous?.session.sessionId);

    const { names, sections } = startSections({
      previous: previous && { session: previous.session, lessons },
      pinned,
      preferences,
      checkpoint: showCheckpoint ? checkpoint : null,
      ownCheckpoint: checkpoint?.sessionId === sessionId,
      project: { name: input.namespace, memories: project },
      global: { name: globalNs, memories: global },
    });
    const fitted = fitSections(`# Context for session ${sessionId}`, sections, maxChars);
    const session = await startSessionRecord(this.executor, {
      id: randomUUID(),
      namespace: input.namespace,
      sessionId,
      harness: storedText(input.harness, 64),
      project: storedText(input.project, 256),
      injectedIds: fitted.keptIds,
      now: new Date().toISOString(),
    });
    return {
      session,
      context: fitted.text,
      chars: fitted.text.length,
      maxChars,
      sections: names.map((name, i) => ({ name, items: fitted.written[i] ?? 0 })),
      preferences,
      omitted: fitted.omitted,
      checkpointId: showCheckpoint ? checkpoint.id : null,
    };
  }

  /**
   * The newest summarized session of the namespace besides this one: its summary, and the
   * memories it stored as new (its tool results and remembers that taught something), most
   * important first. Its summary memory is left out of the lessons (the summary is shown).
   */
  private async previousSession(
    namespace: string,
    sessionId: string,
  ): Promise<{ session: SessionRecord; lessons: MemoryRecord[]; memoryIds: string[] } | null> {
    const session = await previousSummarizedSession(this.executor, namespace, sessionId);
    if (!session) return null;
    const stored = await sessionLessons(this.executor, namespace, session.sessionId, CONTEXT_LIMITS.lessons + 1);
    const lessons = stored.filter((m) => !m.tags.includes(SESSION_SUMMARY_TAG)).slice(0, CONTEXT_LIMITS.lessons);
    return { session, lessons, memoryIds: stored.map((m) => m.id) };
  }

  private async best(namespace: string, query: string | null, exclude: readonly string[], limit: number): Promise<MemoryRecord[]> {
    if (!query) return bestMemories(this.executor, namespace, exclude, limit);
    const outcome = await this.recall.recall({ query, namespace, limit, tokenBudget: null, trackAccess: false });
    const skip = new Set(exclude);
    return outcome.items.map((i) => i.memory).filter((m) => !skip.has(m.id));
  }

  /**
   * One prompt or tool result of an open session (a session never started, or ended, is left
   * alone: null). Fires a periodic checkpoint, in the same transaction, when the prompts since
   * the last one reach N or the time since it reaches M.
   */
  async observe(input: ObserveInput, now = new Date()): Promise<ObserveResult | null> {
    if (!this.settings.enabled) return null;
    const sessionId = sessionKey(input.sessionId);
    const eventId = input.eventId != null ? clientEventId(input.namespace, sessionId, input.eventId) : randomUUID();
    const base = { namespace: input.namespace, sessionId, eventId, now: now.toISOString() };
    const outcome = await this.executor.writeTx('sessions.event', async (tx) => {
      const event = await recordEvent(tx, {
        ...base,
        prompt: input.kind === 'prompt' ? 1 : 0,
        tool: input.kind === 'tool' ? 1 : 0,
        query: storedText(input.query, EVENT_TEXT_CHARS),
        remembered: storedText(input.remembered, EVENT_TEXT_CHARS),
        keywordHits: [...new Set(input.keywordHits ?? [])],
      });
      // No such session, or it has ended: left alone. A re-run of this very event returns what the first run did.
      if (!event || (!event.fresh && !event.replayed)) return null;
      if (!event.fresh) return { session: event.session, checkpoint: null, replayed: event.session.lastCheckpointEvent === eventId };
      const reason = this.due(event.session, now);
      if (!reason) return { session: event.session, checkpoint: null, replayed: false };
      const sincePrompts = event.session.prompts - event.session.checkpointPrompts;
      const session = await markCheckpoint(tx, base);
      const checkpoint = await checkpointWork(
        {
          namespace: input.namespace,
          sessionId,
          trigger: 'periodic',
          digest: checkpointDigest(session, reason, now, CHECKPOINT_DIGEST_CHARS),
          promptCount: sincePrompts,
          memoryQueries: session.recentQueries,
          recentRemembers: session.recentRemembers,
          harness: session.harness,
          project: session.project,
        },
        now,
      )(tx);
      return { session, checkpoint, replayed: false };
    });
    if (!outcome) return null;
    // The first run committed (a lost COMMIT reply): its checkpoint is the session's latest.
    if (outcome.replayed)
      return { session: outcome.session, checkpoint: (await latestCheckpoints(this.executor, input.namespace, sessionId, 1))[0] ?? null };
    return { session: outcome.session, checkpoint: outcome.checkpoint };
  }

  /** Which threshold, if any, this event reaches: N prompts first, then M minutes. */
  private due(session: SessionRecord, now: Date): CheckpointReason | null {
    const prompts = session.prompts - session.checkpointPrompts;
    if (prompts >= this.settings.checkpointPrompts) return { kind: 'prompts', prompts };
    const elapsed = now.getTime() - Date.parse(session.lastCheckpointAt);
    if (elapsed >= this.settings.checkpointIntervalMs) return { kind: 'elapsed', minutes: Math.round(elapsed / 60_000) };
    return null;
  }

  /** Observes without failing the caller's own operation (recall, remember): a failure is logged. */
  async observeQuietly(input: ObserveInput): Promise<ObserveResult | null> {
    try {
      return await this.observe(input);
    } catch (error) {
      this.logger.warn({ err: error, sessionId: input.sessionId }, 'session event not recorded');
      return null;
    }
  }

  async recover(namespace: string, rawSessionId: string, budgetChars?: number | null): Promise<RecoverResult> {
    const sessionId = sessionKey(rawSessionId);
    const limit = budget(budgetChars, this.settings.recoveryBudgetChars, 200, 10_000, 'budgetChars');
    const session = await getSession(this.executor, namespace, sessionId);
    if (!session) throw new NotFoundError('session', sessionId);
    const [latest] = await latestCheckpoints(this.executor, namespace, sessionId, 1);
    // Read live: an open session (one that died) has no summary to carry its files yet.
    const files = await readChangedFiles(this.executor, namespace, sessionId);
    const fitted = recoveryDigest(session, latest ?? null, new Date(), limit, filesLines(files));
    return {
      session,
      digest: fitted.text,
      chars: fitted.text.length,
      budget: limit,
      omitted: fitted.omitted,
      checkpointId: latest?.id ?? null,
    };
  }

  /**
   * Ends an open session: a session_end checkpoint and the session-end job, in one transaction.
   * Ending it again changes nothing. `idleBefore` (the idle sweep) ends it only if it is still idle.
   */
  async end(
    input: {
      namespace: string;
      sessionId: string;
      reason: 'ended' | 'idle';
      actor: string;
      transcript?: string | null;
      idleBefore?: string | null;
    },
    now = new Date(),
  ): Promise<EndResult> {
    const sessionId = sessionKey(input.sessionId);
    if (input.transcript != null) {
      if (!input.transcript.trim()) throw new ValidationError('transcript must not be empty', { field: 'transcript' });
      if (input.transcript.length > this.settings.maxTranscriptChars)
        throw new LimitExceededError(`transcript is longer than ${this.settings.maxTranscriptChars} characters`, { field: 'transcript' });
    }
    const known = await getSession(this.executor, input.namespace, sessionId);
    if (!known) throw new NotFoundError('session', sessionId);
    if (input.transcript != null)
      await saveTranscript(this.executor, { namespace: input.namespace, sessionId, transcript: input.transcript, actor: input.actor });
    const key = JSON.stringify([input.namespace, sessionId]);
    const params = {
      namespace: input.namespace,
      sessionId,
      reason: input.reason,
      jobId: derivedId(SESSION_ID_BASE, `job:${key}`),
      eventId: derivedId(SESSION_ID_BASE, `ended:${key}`),
      maxAttempts: this.settings.maxJobAttempts,
      actor: input.actor,
      idleBefore: input.idleBefore ?? null,
      now: now.toISOString(),
    };
    const outcome = await this.executor.writeTx('sessions.end', async (tx) => {
      const row = await endSessionRecord(tx, params);
      if (!row?.closing) return row;
      const s = row.session;
      await checkpointWork(
        {
          namespace: input.namespace,
          sessionId,
          trigger: 'session_end',
          digest: checkpointDigest(s, { kind: 'session_end', reason: input.reason }, now, CHECKPOINT_DIGEST_CHARS),
          promptCount: s.prompts - s.checkpointPrompts,
          memoryQueries: s.recentQueries,
          recentRemembers: s.recentRemembers,
          harness: s.harness,
          project: s.project,
        },
        now,
      )(tx);
      await queueEndJob(tx, {
        ...params,
        details: { prompts: s.prompts, toolResults: s.toolResults, checkpoints: s.checkpoints },
      });
      return row;
    });
    if (!outcome) throw new NotFoundError('session', sessionId);
    return { session: outcome.session, ended: outcome.closing };
  }

  /** Ends the sessions idle past the timeout (a batch); returns how many it ended. */
  async sweepIdle(namespaces: readonly string[] | null, now = new Date(), limit = 100): Promise<number> {
    if (!this.settings.enabled || this.settings.idleTimeoutMs <= 0) return 0;
    const idleBefore = new Date(now.getTime() - this.settings.idleTimeoutMs).toISOString();
    let ended = 0;
    for (const s of await idleSessions(this.executor, idleBefore, namespaces, limit)) {
      const result = await this.end({ ...s, reason: 'idle', actor: 'session-sweep', idleBefore }, now);
      if (result.ended) ended += 1;
    }
    if (ended > 0) this.logger.info({ ended }, 'idle sessions ended');
    return ended;
  }

  async get(namespace: string, rawSessionId: string): Promise<SessionRecord | null> {
    return getSession(this.executor, namespace, sessionKey(rawSessionId));
  }

  stats(namespace: string): Promise<SessionStats> {
    return sessionStats(this.executor, namespace);
  }

  /** A checkpoint the agent writes itself (before a compaction, at a milestone). */
  checkpoint(input: CheckpointInput): Promise<CheckpointRecord> {
    return writeCheckpoint(this.executor, input);
  }

  /** A session's latest checkpoints, newest first. */
  checkpoints(namespace: string, sessionId: string, limit: number): Promise<CheckpointRecord[]> {
    return latestCheckpoints(this.executor, namespace, sessionId, limit);
  }

  /** The stored transcripts of the sessions of these memories (recall's expand). */
  transcripts(memories: Parameters<typeof sessionTranscripts>[1]): Promise<TranscriptRecord[]> {
    return sessionTranscripts(this.executor, memories);
  }

  /** Stores a session's raw conversation; the first one stored wins. */
  saveTranscript(t: Parameters<typeof saveTranscript>[1]) {
    return saveTranscript(this.executor, t);
  }
}
