import { randomUUID } from 'node:crypto';
import type { Executor, TxRunner } from '../executor.js';

/**
 * The one writer of `UpkeepState` nodes: counters and limits whose value must survive a restart
 * and be the same in every replica, one node per key (cypher/020-upkeep-state.cypher). Before,
 * they lived in the memory of each process: a restart reset them and each replica had its own.
 *
 * - `feedback:<namespace>`: the namespace's aspect feedback sessions (stale aspects decay every N
 *   of them) and the telemetry pipelineStatus.feedback answers. Moved in the transaction that
 *   applies a session's feedback, so each session counts once, whichever process applies it.
 * - `maintenance:<scope>:<action>`: a maintenance repair's rate limit and halt in one scope (a
 *   namespace, or `*` for all): its runs of the last hour (cooldown, hourly budget), its executions
 *   in a row that did not raise the health score, and when it was halted. A run is claimed before
 *   it executes, in one statement that checks the limits under the node's lock, so two replicas
 *   never both take the last run of a budget.
 * - `schedule:<task>:<namespaces>`: when a periodic upkeep task (decay, retention, maintenance, the
 *   compression threshold) last ran over those namespaces: one run per interval for every replica,
 *   and a restart runs an overdue task soon instead of a whole interval later.
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

const HOUR_MS = 60 * 60 * 1000;

// The lock first (SET claimedAt), then the read: a second replica's claim waits and sees this one's run.
// $claim is made before the transaction: a re-run of it (its COMMIT reply lost) finds its own claim and
// answers as the first run did, adding no second run.
export const CLAIM_MAINTENANCE_RUN = `
MERGE (s:UpkeepState {key: $key})
  ON CREATE SET s.kind = 'maintenance', s.namespace = $namespace, s.scope = $scope, s.action = $action,
    s.name = 'maintenance ' + $action + ' in ' + $scope, s.runs = [], s.nonImproving = 0
SET s.claimedAt = $now
WITH s, coalesce(s.lastClaim = $claim, false) AS ours, [t IN coalesce(s.runs, []) WHERE t > $now - $hourMs] AS recent
WITH s, ours, recent, CASE
  WHEN ours THEN null
  WHEN s.haltedAt IS NOT NULL AND s.haltedAt > $now - $haltMs THEN 'halted'
  WHEN size(recent) > 0 AND $now - recent[-1] < $cooldownMs THEN 'cooldown'
  WHEN size(recent) >= $hourlyBudget THEN 'budget'
END AS blocked
SET s.runs = CASE WHEN blocked IS NULL AND NOT ours THEN recent + [$now] ELSE recent END,
    s.lastClaim = CASE WHEN blocked IS NULL THEN $claim ELSE s.lastClaim END, s.updatedAt = $now
RETURN blocked`;

/** A claimed run that did not execute (the repair was unavailable or failed) gives its place back. */
export const RELEASE_MAINTENANCE_RUN = `
MATCH (s:UpkeepState {key: $key})
SET s.runs = [t IN coalesce(s.runs, []) WHERE t <> $claimed], s.updatedAt = $now`;

/** After the executed repairs: a raised score clears the count, else it grows; HALT_AFTER in a row halts. */
export const RECORD_MAINTENANCE_OUTCOME = `
UNWIND $keys AS key
MATCH (s:UpkeepState {key: key})
SET s.nonImproving = CASE WHEN $improved THEN 0 ELSE coalesce(s.nonImproving, 0) + 1 END, s.updatedAt = $now
SET s.haltedAt = CASE WHEN s.nonImproving >= $haltAfter THEN $now ELSE s.haltedAt END
RETURN s.action AS action, s.nonImproving AS runs, s.haltedAt = $now AS halted`;

/** A cycle with nothing to recommend: the scope's repairs start afresh (counts and halts cleared). */
export const RESET_MAINTENANCE = `
UNWIND $keys AS key
MATCH (s:UpkeepState {key: key})
WHERE s.nonImproving > 0 OR s.haltedAt IS NOT NULL
SET s.nonImproving = 0, s.haltedAt = null, s.updatedAt = $now`;

export const HALTED_MAINTENANCE = `
UNWIND $keys AS key
MATCH (s:UpkeepState {key: key})
WHERE s.haltedAt IS NOT NULL AND s.haltedAt > $now - $haltMs
RETURN s.action AS action`;

/** A repair's state key in a scope: a namespace, or null for all of them. */
export function maintenanceKey(namespace: string | null, action: string): string {
  return `maintenance:${namespace ?? '*'}:${action}`;
}

export interface MaintenanceLimit {
  cooldownMs: number;
  hourlyBudget: number;
  /** How long a halt lasts. */
  haltMs: number;
}

/**
 * Claims one run of `action` in the scope at `now` (epoch ms): null when it may run (the run is
 * recorded), else why not: halted, cooldown or budget.
 */
export async function claimMaintenanceRun(
  executor: Executor,
  p: { namespace: string | null; action: string; now: number; limit: MaintenanceLimit; claim?: string },
): Promise<'halted' | 'cooldown' | 'budget' | null> {
  const [row] = await executor.write<{ blocked: 'halted' | 'cooldown' | 'budget' | null }>(
    'upkeep.state.maintenance.claim',
    CLAIM_MAINTENANCE_RUN,
    {
      key: maintenanceKey(p.namespace, p.action),
      namespace: p.namespace,
      scope: p.namespace ?? '*',
      action: p.action,
      now: p.now,
      hourMs: HOUR_MS,
      haltMs: p.limit.haltMs,
      cooldownMs: p.limit.cooldownMs,
      hourlyBudget: p.limit.hourlyBudget,
      claim: p.claim ?? randomUUID(),
    },
  );
  return row?.blocked ?? null;
}

export async function releaseMaintenanceRun(
  executor: Executor,
  p: { namespace: string | null; action: string; claimed: number },
): Promise<void> {
  await executor.write('upkeep.state.maintenance.release', RELEASE_MAINTENANCE_RUN, {
    key: maintenanceKey(p.namespace, p.action),
    claimed: p.claimed,
    now: Date.now(),
  });
}

/** Records whether the executed actions raised the score; returns the actions halted now. */
export async function recordMaintenanceOutcome(
  executor: Executor,
  p: { namespace: string | null; actions: readonly string[]; improved: boolean; haltAfter: number; now: number },
): Promise<Array<{ action: string; runs: number }>> {
  if (p.actions.length === 0) return [];
  const rows = await executor.write<{ action: string; runs: number; halted: boolean }>(
    'upkeep.state.maintenance.outcome',
    RECORD_MAINTENANCE_OUTCOME,
    {
      keys: p.actions.map((a) => maintenanceKey(p.namespace, a)),
      improved: p.improved,
      haltAfter: p.haltAfter,
      now: p.now,
    },
  );
  return rows.filter((r) => r.halted).map((r) => ({ action: r.action, runs: Number(r.runs) }));
}

export async function resetMaintenance(
  executor: Executor,
  p: { namespace: string | null; actions: readonly string[]; now: number },
): Promise<void> {
  await executor.write('upkeep.state.maintenance.reset', RESET_MAINTENANCE, {
    keys: p.actions.map((a) => maintenanceKey(p.namespace, a)),
    now: p.now,
  });
}

/** The scope's actions halted now, in the order given. */
export async function haltedMaintenance(
  executor: Executor,
  p: { namespace: string | null; actions: readonly string[]; now: number; haltMs: number },
): Promise<string[]> {
  const rows = await executor.read<{ action: string }>('upkeep.state.maintenance.halted', HALTED_MAINTENANCE, {
    keys: p.actions.map((a) => maintenanceKey(p.namespace, a)),
    now: p.now,
    haltMs: p.haltMs,
  });
  const halted = new Set(rows.map((r) => r.action));
  return p.actions.filter((a) => halted.has(a));
}

// The lock first (SET checkedAt), then the read: of two replicas asking at once, one runs the task.
// A re-run of the transaction (its $claim already recorded) is still the one that runs it.
export const CLAIM_SCHEDULED_RUN = `
MERGE (s:UpkeepState {key: $key})
  ON CREATE SET s.kind = 'schedule', s.task = $task, s.name = 'schedule of ' + $task
SET s.checkedAt = $now
WITH s, coalesce(s.lastClaim = $claim, false) AS ours, coalesce(s.lastRunAt, 0) + $intervalMs - $now AS wait
WITH s, ours, wait, ours OR wait <= 0 AS due
SET s.lastRunAt = CASE WHEN due AND NOT ours THEN $now ELSE s.lastRunAt END,
    s.lastClaim = CASE WHEN due THEN $claim ELSE s.lastClaim END
RETURN CASE WHEN due THEN 0 ELSE wait END AS wait`;

/**
 * A periodic task's turn over these namespaces (null: all): 0 when it is due (its run at `now` is
 * recorded), else the milliseconds until it is.
 */
export async function claimScheduledRun(
  executor: Executor,
  p: { task: string; namespaces: readonly string[] | null; intervalMs: number; now: number; claim?: string },
): Promise<number> {
  const scope = p.namespaces ? [...p.namespaces].sort().join(',') : '*';
  const [row] = await executor.write<{ wait: number }>('upkeep.state.schedule', CLAIM_SCHEDULED_RUN, {
    key: `schedule:${p.task}:${scope}`,
    task: p.task,
    intervalMs: p.intervalMs,
    now: p.now,
    claim: p.claim ?? randomUUID(),
  });
  return Math.max(0, Number(row?.wait ?? 0));
}
