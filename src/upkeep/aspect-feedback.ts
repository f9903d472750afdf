import type { Executor } from '../db/index.js';
import { applyAspectFeedback, decayAspects, derivedId } from '../db/index.js';
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

/** Per-namespace counters of this process (pipelineStatus.feedback). */
export class AspectFeedback {
  private readonly telemetry = new Map<string, FeedbackTelemetry>();
  private readonly sessions = new Map<string, number>();

  constructor(private readonly executor: Executor) {}

  snapshot(namespace: string): FeedbackTelemetry {
    return { ...(this.telemetry.get(namespace) ?? { aspectsUpdated: 0, ftsConfirmations: 0, decayedAspects: 0, propagatedAttributes: 0 }) };
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
    if (result.applied) {
      const sessions = (this.sessions.get(input.namespace) ?? 0) + 1;
      this.sessions.set(input.namespace, sessions);
      if (sessions % FEEDBACK.decayEverySessions === 0) {
        result.decayedAspects = await decayAspects(this.executor, {
          namespace: input.namespace,
          staleBefore: new Date(now.getTime() - FEEDBACK.staleDays * 86_400_000).toISOString(),
          now: now.toISOString(),
          minWeight: FEEDBACK.minWeight,
          decayRate: FEEDBACK.decayRate,
        });
      }
      const t = this.snapshot(input.namespace);
      this.telemetry.set(input.namespace, {
        aspectsUpdated: t.aspectsUpdated + result.aspectsUpdated,
        ftsConfirmations: t.ftsConfirmations + result.ftsConfirmations,
        decayedAspects: t.decayedAspects + result.decayedAspects,
        propagatedAttributes: t.propagatedAttributes + result.propagatedAttributes,
      });
    }
    return result;
  }
}
