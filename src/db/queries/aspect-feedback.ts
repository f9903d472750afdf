import type { Executor } from '../executor.js';
import { recordEvents, settleEvent } from '../history.js';
import { countFeedbackSession } from './upkeep-state.js';

/**
 * Aspect feedback's statements (src/upkeep/aspect-feedback-service.ts decides when and how much): the
 * weights of the aspects a session confirmed move, once per session, and stale aspects decay.
 */

// The aspects under the memories' active attributes gain $delta per confirming memory, clamped.
export const APPLY_FEEDBACK = `
CALL () {
  UNWIND $memoryIds AS id
  MATCH (:Memory {id: id, namespace: $namespace})<-[:FROM]-(attr:Attribute)<-[:HAS_ATTRIBUTE]-(asp:Aspect)
  WHERE attr.status = 'active'
  WITH asp, count(DISTINCT id) AS confirmations
  SET asp.weight = CASE WHEN coalesce(asp.weight, 1.0) + $delta * confirmations > $maxWeight THEN $maxWeight
                        WHEN coalesce(asp.weight, 1.0) + $delta * confirmations < $minWeight THEN $minWeight
                        ELSE coalesce(asp.weight, 1.0) + $delta * confirmations END,
      asp.feedbackAt = $now
  RETURN count(asp) AS aspects, sum(confirmations) AS confirmations,
         sum(COUNT { (asp)-[:HAS_ATTRIBUTE]->(:Attribute {status: 'active'}) }) AS attributes
}
RETURN aspects, confirmations, attributes`;

// Aspects no feedback touched for staleDays lose decayRate, floored at minWeight.
export const DECAY_ASPECTS = `
MATCH (asp:Aspect {namespace: $namespace})
WHERE coalesce(asp.feedbackAt, asp.createdAt) < $staleBefore AND coalesce(asp.weight, 1.0) > $minWeight
WITH asp LIMIT 1000
SET asp.weight = CASE WHEN coalesce(asp.weight, 1.0) - $decayRate < $minWeight THEN $minWeight ELSE coalesce(asp.weight, 1.0) - $decayRate END,
    asp.feedbackAt = $now
RETURN count(asp) AS decayed`;

export interface FeedbackWrite {
  /** Derived from (namespace, session): the same for every run of that session's feedback. */
  eventId: string;
  namespace: string;
  memoryIds: string[];
  actor: string;
  now: string;
  delta: number;
  minWeight: number;
  maxWeight: number;
}

export interface FeedbackCounts {
  aspects: number;
  confirmations: number;
  attributes: number;
  /** The namespace's feedback sessions, this one included (kept in the database: upkeep-state.ts). */
  sessions: number;
}

/**
 * Once per session: the audit event is recorded first and the weights move only when this call
 * created it, so a repeat (or a re-run transaction) changes nothing and returns null.
 */
export async function applyAspectFeedback(executor: Executor, w: FeedbackWrite): Promise<FeedbackCounts | null> {
  return executor.writeTx('feedback.apply', async (tx) => {
    const created = await recordEvents(
      tx,
      [
        {
          id: w.eventId,
          event: 'aspect.feedback',
          name: 'aspect feedback',
          about: { namespace: w.namespace },
          actor: w.actor,
          outcome: 'pending',
        },
      ],
      w.now,
    );
    if (!created.includes(w.eventId)) return null;
    const [row] = await tx.run<Omit<FeedbackCounts, 'sessions'> & Record<string, unknown>>(APPLY_FEEDBACK, {
      namespace: w.namespace,
      memoryIds: w.memoryIds,
      now: w.now,
      delta: w.delta,
      minWeight: w.minWeight,
      maxWeight: w.maxWeight,
    });
    await settleEvent(tx, w.eventId, 'applied', { aspects: row!.aspects, confirmations: row!.confirmations });
    const sessions = await countFeedbackSession(tx, {
      namespace: w.namespace,
      aspects: Number(row!.aspects),
      confirmations: Number(row!.confirmations),
      attributes: Number(row!.attributes),
      now: w.now,
    });
    return { aspects: Number(row!.aspects), confirmations: Number(row!.confirmations), attributes: Number(row!.attributes), sessions };
  });
}

export async function decayAspects(
  executor: Executor,
  p: { namespace: string; staleBefore: string; now: string; minWeight: number; decayRate: number },
): Promise<number> {
  const [row] = await executor.write<{ decayed: number }>('feedback.decay', DECAY_ASPECTS, p);
  return Number(row?.decayed ?? 0);
}
