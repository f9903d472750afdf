import type { Executor } from '../db/index.js';
import { applyAspectFeedback, countDecayedAspects, decayAspects, derivedId, feedbackState } from '../db/index.js';
import { ValidationError } from '../errors.js';
import { cleanText } from '../text/index.js';

/** Aspect feedback: +delta per confirming memory within [minWeight, maxWeight]; untouched aspects decay every decayEverySessions sessions. */
export const FEEDBACK = {
  delta: 0.05,
  minWeight: 0.1,
  maxWeight: 3,
  decayRate: 0.02,
  staleDays: 14,
  /** Decay runs every this many feedback sessions of a namespace. */
  decayEverySessions: 10,
  maxMemories: 200,
} as const;

/** A fixed base: the event id of a (namespace, session) is the same in every process. */
const FEEDBACK_ID_BASE = '6f1d3c2a-0b7e-4f3c-9d5a-aspectfeedbk';

export interface FeedbackTelemetry {
  aspectsUpdated: number;
  ftsConfirmations: number;
  decayedAspects: number;
  propagatedAttributes: number;
}

export interface FeedbackResult extends FeedbackTelemetry {
  /** False when this session's feedback was applied before (nothing changed). */
  applied: boolean;
}

/**
 * Aspect feedback. Its counters — the sessions that decide when stale aspects decay, and the
 * telemetry of pipelineStatus.feedback — are kept in the database (db/queries/upkeep-state.ts),
 * moved in the transaction that applies a session: the same after a restart and in every replica.
 */
export class AspectFeedback {
  constructor(private readonly executor: Executor) {}

  async snapshot(namespace: string): Promise<FeedbackTelemetry> {
    const { sessions: _sessions, ...telemetry } = await feedbackState(this.executor, namespace);
    return telemetry;
  }

  /**
   * The memories a session confirmed (the agent found and used them) raise the weight of the
   * aspects their active attributes sit under: delta × confirmations, clamped. Every
   * decayEverySessions sessions, stale aspects decay.
   */
  async apply(input: { namespace: string; sessionId: string; memoryIds: readonly string[]; actor: string }): Promise<FeedbackResult> {
    const sessionId = cleanText(input.sessionId).trim(); // as the memories store it (src/text)
    if (!sessionId || sessionId.length > 256) throw new ValidationError('sessionId must be 1–256 characters', { field: 'sessionId' });
    if (input.memoryIds.length > FEEDBACK.maxMemories)
      throw new ValidationError(`at most ${FEEDBACK.maxMemories} memoryIds`, { field: 'memoryIds' });
    const now = new Date();
    const row = await applyAspectFeedback(this.executor, {
      eventId: derivedId(FEEDBACK_ID_BASE, JSON.stringify([input.namespace, sessionId])),
      namespace: input.namespace,
      memoryIds: [...new Set(input.memoryIds)],
      actor: input.actor,
      now: now.toISOString(),
      delta: FEEDBACK.delta,
      minWeight: FEEDBACK.minWeight,
      maxWeight: FEEDBACK.maxWeight,
    });
    const result: FeedbackResult = {
      applied: Boolean(row),
      aspectsUpdated: Number(row?.aspects ?? 0),
      ftsConfirmations: Number(row?.confirmations ?? 0),
      decayedAspects: 0,
      propagatedAttributes: Number(row?.attributes ?? 0),
    };
    // The session count is the database's, moved atomically with this session's feedback: exactly
    // one process sees each multiple of decayEverySessions.
    if (row && row.sessions % FEEDBACK.decayEverySessions === 0) {
      result.decayedAspects = await decayAspects(this.executor, {
        namespace: input.namespace,
        staleBefore: new Date(now.getTime() - FEEDBACK.staleDays * 86_400_000).toISOString(),
        now: now.toISOString(),
        minWeight: FEEDBACK.minWeight,
        decayRate: FEEDBACK.decayRate,
      });
      await countDecayedAspects(this.executor, input.namespace, result.decayedAspects, now.toISOString());
    }
    return result;
  }
}
