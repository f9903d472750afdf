import type { Executor } from '../../db/index.js';
import { maintenanceReleaseStale, maintenanceRequeueDead } from '../../db/index.js';
import type { Logger } from '../../logger.js';
import { diagnose, type Diagnostics } from './diagnostics.js';
import type { ActionLimit } from '../../config/index.js';
import { recommend, type Recommendation, type RepairAction } from './repairs.js';

export type MaintenanceMode = 'observe' | 'execute';

/** Non-improving runs after which an action is halted for this process's lifetime: a repair that does not help stops. */
export const HALT_AFTER = 3;
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
 * State is per scope (namespace or all) and per process.
 */
export class MaintenanceWorker {
  private readonly runs = new Map<string, number[]>();
  private readonly nonImproving = new Map<string, number>();
  private readonly halted = new Set<string>();
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
    if (recommendations.length === 0)
      for (const key of [...this.nonImproving.keys()]) if (key.startsWith(`${scope}|`)) this.nonImproving.delete(key);
    const actions: ActionOutcome[] = [];
    const executed: RepairAction[] = [];
    for (const r of recommendations) {
      const key = `${scope}|${r.action}`;
      const manual = options.scheduled === true && this.settings.autoActions !== undefined && !this.settings.autoActions.includes(r.action);
      const outcome = mode === 'observe' || manual ? 'observed' : this.blocked(key, r.action);
      if (outcome) {
        actions.push({ ...r, outcome, affected: 0 });
        continue;
      }
      try {
        const affected = await this.execute(r, namespace);
        if (affected === null) {
          actions.push({ ...r, outcome: 'unavailable', affected: 0 });
          continue;
        }
        this.runs.set(key, [...(this.runs.get(key) ?? []), Date.now()]);
        executed.push(r.action);
        actions.push({ ...r, outcome: 'executed', affected });
      } catch (error) {
        this.logger.warn({ err: error, action: r.action }, 'maintenance repair failed');
        actions.push({ ...r, outcome: 'failed', affected: 0 });
      }
    }
    const after = executed.length > 0 ? await diagnose(this.executor, namespace, this.settings.leaseTimeoutMs) : null;
    const scoreDelta = after ? Math.round((after.score - before.score) * 10_000) / 10_000 : 0;
    for (const action of executed) {
      const key = `${scope}|${action}`;
      const count = scoreDelta > 0 ? 0 : (this.nonImproving.get(key) ?? 0) + 1;
      this.nonImproving.set(key, count);
      if (count >= HALT_AFTER) {
        this.halted.add(key);
        this.logger.warn({ action, scope, runs: count }, 'maintenance action halted: it did not improve health');
      }
    }
    const report: MaintenanceReport = {
      namespace,
      mode,
      at: new Date().toISOString(),
      before,
      after,
      scoreDelta,
      actions,
      halted: [...this.halted].filter((k) => k.startsWith(`${scope}|`)).map((k) => k.split('|')[1] as RepairAction),
    };
    this.last = report;
    if (recommendations.length)
      this.logger.info(
        { mode, namespace, score: before.score, scoreDelta, actions: actions.map((a) => `${a.action}:${a.outcome}`) },
        'maintenance cycle',
      );
    return report;
  }

  /** Why an action may not run now, or null. */
  private blocked(key: string, action: RepairAction): string | null {
    if (this.halted.has(key)) return 'halted';
    const limit = this.settings.actionLimits?.[action] ?? this.settings;
    const now = Date.now();
    const recent = (this.runs.get(key) ?? []).filter((t) => now - t < 60 * 60 * 1000);
    this.runs.set(key, recent);
    if (recent.length > 0 && now - recent.at(-1)! < limit.cooldownMs) return 'cooldown';
    if (recent.length >= limit.hourlyBudget) return 'budget';
    return null;
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
