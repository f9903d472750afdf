/** The maintenance loop's repairs, by name. */
export type RepairAction =
  | 'requeueDeadJobs'
  | 'releaseStaleLeases'
  | 'reembedMissingVectors'
  | 'checkFtsConsistency'
  | 'triggerRetentionSweep';

export interface ActionLimit {
  /** Between two runs of the action in one scope. */
  cooldownMs: number;
  /** Runs of the action per hour in one scope. */
  hourlyBudget: number;
}

/**
 * Each repair's own rate: re-embedding is the costly one (5 min apart, 10 an hour); requeueing
 * dead jobs and releasing stale leases are cheap queue updates (1 min apart, 50 an hour). An
 * action not listed (the retention sweep) uses DEFAULT_MAINTENANCE_COOLDOWN_MS and DEFAULT_MAINTENANCE_HOURLY_BUDGET.
 */
export const ACTION_LIMITS: Readonly<Partial<Record<RepairAction, ActionLimit>>> = {
  reembedMissingVectors: { cooldownMs: 5 * 60 * 1000, hourlyBudget: 10 },
  requeueDeadJobs: { cooldownMs: 60 * 1000, hourlyBudget: 50 },
  releaseStaleLeases: { cooldownMs: 60 * 1000, hourlyBudget: 50 },
};

/**
 * The repairs the scheduled loop runs by itself in execute mode (MAINTENANCE_AUTO_ACTIONS):
 * the ones that only restore what the store should already hold. Requeueing dead jobs spends
 * model calls again on work that failed, so it waits for an operator (runMaintenance) unless listed.
 */
export const DEFAULT_AUTO_ACTIONS: readonly RepairAction[] = ['releaseStaleLeases', 'reembedMissingVectors', 'triggerRetentionSweep'];
