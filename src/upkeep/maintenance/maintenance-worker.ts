import type { Executor } from '../../db/index.js';
import {
  claimMaintenanceRun,
  haltedMaintenance,
  maintenanceReleaseStale,
  maintenanceRequeueDead,
  recordMaintenanceOutcome,
  releaseMaintenanceRun,
  resetMaintenance,
} from '../../db/index.js';
import type { Logger } from '../../logger.js';
import { diagnose, type Diagnostics } from './diagnostics.js';
import type { ActionLimit } from '../../config/index.js';
import { recommend, type Recommendation, type RepairAction } from './repairs.js';

export type MaintenanceMode = 'observe' | 'execute';

/** Non-improving runs in a row after which an action is halted (for HALT_MS): a repair that does not help stops. */
export const HALT_AFTER = 3;
/** How long a halt lasts, in every replica and across restarts; a cycle with nothing to recommend lifts it sooner. */
export const HALT_MS = 24 * 60 * 60 * 1000;
const ACTIONS: readonly RepairAction[] = [
  'requeueDeadJobs',
  'releaseStaleLeases',
  'reembedMissingVectors',
  'checkFtsConsistency',
  'triggerRetentionSweep',
];
const REPAIR_BATCH = 500;

export interface MaintenanceSettings {
  /** Between two runs of one action. */
  cooldownMs: number;
  /** Runs of one action per hour. */
  hourlyBudget: number;
  leaseTimeoutMs: number;
  /** An action's own cooldown and budget, in place of the two above. */
  actionLimits?: Partial<Record<RepairAction, ActionLimit>>;
  /** The actions a scheduled cycle executes; the others it only observes. All when absent. */
  autoActions?: readonly RepairAction[];
}

/** The repairs that need other services: a retention sweep, the embedding tracker. */
export interface MaintenanceHooks {
  retentionSweep(namespace: string | null): Promise<number>;
  /** Re-embeds what is missing; null when the tracker is off. */
  reembed(): Promise<number> | null;
}

export interface ActionOutcome {
  action: RepairAction;
  reason: string;
  /** executed, observed (observe mode), cooldown, budget, halted, unavailable, failed */
  outcome: string;
  affected: number;
}

export interface MaintenanceReport {
  namespace: string | null;
  mode: MaintenanceMode;
  at: string;
  before: Diagnostics;
  after: Diagnostics | null;
  scoreDelta: number;
  actions: ActionOutcome[];
  halted: RepairAction[];
}

/**
 * The maintenance worker: diagnose → recommend → (execute) → diagnose again. Each action
 * is rate-limited (cooldown, hourly budget) and halted after HALT_AFTER consecutive executions
 * that did not raise the health score; a cycle with nothing to recommend resets the tracker.
 * That state is per scope (namespace or all) and kept in the database (db/queries/upkeep-state.ts):
 * the same after a restart and for every replica, so N replicas do not spend N budgets and a
 * restart does not lift a halt. The last report is this process's.
 */
export class MaintenanceWorker {
  private last: MaintenanceReport | null = null;

  constructor(
    private readonly executor: Executor,
    private readonly settings: MaintenanceSettings,
    private readonly hooks: MaintenanceHooks,
    private readonly logger: Logger,
  ) {}

  lastReport(): MaintenanceReport | null {
    return this.last;
  }

  /** One cycle; `scheduled` (the loop) executes only the auto actions, an operator's call all of them. */
  async tick(mode: MaintenanceMode, namespace: string | null = null, options: { scheduled?: boolean } = {}): Promise<MaintenanceReport> {
    const scope = namespace ?? '*';
    const before = await diagnose(this.executor, namespace, this.settings.leaseTimeoutMs);
    const recommendations = recommend(before);
    if (recommendations.length === 0) await resetMaintenance(this.executor, { namespace, actions: ACTIONS, now: Date.now() });
    const actions: ActionOutcome[] = [];
    const executed: RepairAction[] = [];
    for (const r of recommendations) {
      const manual = options.scheduled === true && this.settings.autoActions !== undefined && !this.settings.autoActions.includes(r.action);
      if (mode === 'observe' || manual) {
        actions.push({ ...r, outcome: 'observed', affected: 0 });
        continue;
      }
      const claimed = Date.now();
      const blocked = await claimMaintenanceRun(this.executor, { namespace, action: r.action, now: claimed, limit: this.limit(r.action) });
      if (blocked) {
        actions.push({ ...r, outcome: blocked, affected: 0 });
        continue;
      }
      try {
        const affected = await this.execute(r, namespace);
        if (affected === null) {
          await releaseMaintenanceRun(this.executor, { namespace, action: r.action, claimed });
          actions.push({ ...r, outcome: 'unavailable', affected: 0 });
          continue;
        }
        executed.push(r.action);
        actions.push({ ...r, outcome: 'executed', affected });
      } catch (error) {
        this.logger.warn({ err: error, action: r.action }, 'maintenance repair failed');
        await releaseMaintenanceRun(this.executor, { namespace, action: r.action, claimed }).catch(() => undefined);
        actions.push({ ...r, outcome: 'failed', affected: 0 });
      }
    }
    const after = executed.length > 0 ? await diagnose(this.executor, namespace, this.settings.leaseTimeoutMs) : null;
    const scoreDelta = after ? Math.round((after.score - before.score) * 10_000) / 10_000 : 0;
    const haltedNow = await recordMaintenanceOutcome(this.executor, {
      namespace,
      actions: executed,
      improved: scoreDelta > 0,
      haltAfter: HALT_AFTER,
      now: Date.now(),
    });
    for (const { action, runs } of haltedNow)
      this.logger.warn({ action, scope, runs }, 'maintenance action halted: it did not improve health');
    const halted = await haltedMaintenance(this.executor, { namespace, actions: ACTIONS, now: Date.now(), haltMs: HALT_MS });
    const report: MaintenanceReport = {
      namespace,
      mode,
      at: new Date().toISOString(),
      before,
      after,
      scoreDelta,
      actions,
      halted: halted as RepairAction[],
    };
    this.last = report;
    if (recommendations.length)
      this.logger.info(
        { mode, namespace, score: before.score, scoreDelta, actions: actions.map((a) => `${a.action}:${a.outcome}`) },
        'maintenance cycle',
      );
    return report;
  }

  private limit(action: RepairAction): { cooldownMs: number; hourlyBudget: number; haltMs: number } {
    const { cooldownMs, hourlyBudget } = this.settings.actionLimits?.[action] ?? this.settings;
    return { cooldownMs, hourlyBudget, haltMs: HALT_MS };
  }

  private async execute(r: Recommendation, namespace: string | null): Promise<number | null> {
    switch (r.action) {
      case 'requeueDeadJobs':
        return maintenanceRequeueDead(this.executor, namespace, REPAIR_BATCH);
      case 'releaseStaleLeases':
        return maintenanceReleaseStale(this.executor, namespace, this.settings.leaseTimeoutMs, REPAIR_BATCH);
      case 'reembedMissingVectors':
        return this.hooks.reembed();
      case 'triggerRetentionSweep':
        return this.hooks.retentionSweep(namespace);
      case 'checkFtsConsistency':
        // Neo4j maintains its indexes itself; a gap is reported for an operator, not repaired here.
        return null;
    }
  }
}
