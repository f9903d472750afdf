import type { Executor, TxRunner } from '../executor.js';

/**
 * The one writer of `UpkeepState` nodes: counters and limits whose value must survive a restart
 * and be the same in every replica, one node per key (cypher/020-upkeep-state.cypher). Before,
 * they lived in the memory of each process: a restart reset them and each replica had its own.
 *
 * - `feedback:<namespace>`: the namespace's aspect feedback sessions (stale aspects decay every N
 *   of them) and the telemetry pipelineStatus.feedback answers. Moved in the transaction that
 *   applies a session's feedback, so each session counts once, whichever process applies it.
 */

const feedbackKey = (namespace: string) => `feedback:${namespace}`;

// ON CREATE then SET: the first session counts as 1, as every later one adds 1, atomically (the
// node is locked by the SET, so two replicas never read the same count).
export const COUNT_FEEDBACK_SESSION = `
MERGE (s:UpkeepState {key: $key})
  ON CREATE SET s.kind = 'feedback', s.namespace = $namespace, s.name = 'aspect feedback of ' + $namespace,
    s.sessions = 0, s.aspectsUpdated = 0, s.ftsConfirmations = 0, s.decayedAspects = 0, s.propagatedAttributes = 0
SET s.sessions = s.sessions + 1,
    s.aspectsUpdated = s.aspectsUpdated + $aspects,
    s.ftsConfirmations = s.ftsConfirmations + $confirmations,
    s.propagatedAttributes = s.propagatedAttributes + $attributes,
    s.updatedAt = $now
RETURN s.sessions AS sessions`;

export const COUNT_DECAYED_ASPECTS = `
MATCH (s:UpkeepState {key: $key})
SET s.decayedAspects = s.decayedAspects + $decayed, s.updatedAt = $now`;

export const FEEDBACK_STATE = `
OPTIONAL MATCH (s:UpkeepState {key: $key})
RETURN coalesce(s.sessions, 0) AS sessions, coalesce(s.aspectsUpdated, 0) AS aspectsUpdated,
       coalesce(s.ftsConfirmations, 0) AS ftsConfirmations, coalesce(s.decayedAspects, 0) AS decayedAspects,
       coalesce(s.propagatedAttributes, 0) AS propagatedAttributes`;

export interface FeedbackState {
  /** Sessions whose feedback was applied in the namespace. */
  sessions: number;
  aspectsUpdated: number;
  ftsConfirmations: number;
  decayedAspects: number;
  propagatedAttributes: number;
}

/** Inside the feedback's transaction: counts the session and its changes; returns the namespace's session count. */
export async function countFeedbackSession(
  tx: TxRunner,
  p: { namespace: string; aspects: number; confirmations: number; attributes: number; now: string },
): Promise<number> {
  const [row] = await tx.run<{ sessions: number }>(COUNT_FEEDBACK_SESSION, { ...p, key: feedbackKey(p.namespace) });
  return Number(row!.sessions);
}

export async function countDecayedAspects(executor: Executor, namespace: string, decayed: number, now: string): Promise<void> {
  if (decayed <= 0) return;
  await executor.write('upkeep.state.decayed', COUNT_DECAYED_ASPECTS, { key: feedbackKey(namespace), decayed, now });
}

export async function feedbackState(executor: Executor, namespace: string): Promise<FeedbackState> {
  const [row] = await executor.read<FeedbackState & Record<string, unknown>>('upkeep.state.feedback', FEEDBACK_STATE, {
    key: feedbackKey(namespace),
  });
  return {
    sessions: Number(row?.sessions ?? 0),
    aspectsUpdated: Number(row?.aspectsUpdated ?? 0),
    ftsConfirmations: Number(row?.ftsConfirmations ?? 0),
    decayedAspects: Number(row?.decayedAspects ?? 0),
    propagatedAttributes: Number(row?.propagatedAttributes ?? 0),
  };
}
