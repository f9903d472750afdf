import neo4j from 'neo4j-driver';
import type { Executor } from '../../db/index.js';
import { purgeChunks, purgeCompletedJobs, purgeDeadJobs, purgeHistory, purgeMentions, purgeTombstones } from '../../db/retention/index.js';
import type { PurgeStep, RetentionWindow, StepCounts } from '../../db/retention/index.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/** The purge order: links before the vectors, both before the memories they hang off, then the logs. */
export const RETENTION_STEPS: readonly PurgeStep[] = [
  purgeMentions,
  purgeChunks,
  purgeTombstones,
  purgeHistory,
  purgeCompletedJobs,
  purgeDeadJobs,
];

export interface RetentionSettings {
  /** Days per window. */
  windows: Record<RetentionWindow, number>;
  batchSize: number;
}

export interface RetentionStepReport extends StepCounts {
  step: string;
  cutoff: string;
  /** The step deleted a full batch: more is probably expired (the next run continues). */
  batchFull: boolean;
  durationMs: number;
}

export interface RetentionReport {
  namespace: string | null;
  dryRun: boolean;
  startedAt: string;
  durationMs: number;
  steps: RetentionStepReport[];
  /** Rows deleted (or, dry, that would be) over every step, orphans included. */
  total: number;
}

/**
 * One retention sweep: the six purge steps in order, each in its own short write transaction
 * (a dry run reads instead), each at most `batchSize` rows. Deleting is idempotent, so a step
 * the driver re-runs deletes nothing twice.
 */
export async function runRetention(
  executor: Executor,
  settings: RetentionSettings,
  options: { namespace: string | null; dryRun?: boolean; now?: Date },
): Promise<RetentionReport> {
  const now = options.now ?? new Date();
  const dryRun = options.dryRun ?? false;
  const started = performance.now();
  const steps: RetentionStepReport[] = [];
  for (const step of RETENTION_STEPS) {
    const cutoff = new Date(now.getTime() - settings.windows[step.window] * DAY_MS).toISOString();
    const scope = { namespace: options.namespace, cutoff, limit: settings.batchSize };
    const params = { ...scope, limit: neo4j.int(settings.batchSize) as unknown as number };
    const t0 = performance.now();
    const result = dryRun
      ? await executor.readTx(`retention.${step.name}.preview`, (tx) => step.preview(tx, params))
      : await executor.writeTx(`retention.${step.name}`, (tx) => step.purge(tx, params));
    steps.push({
      step: step.name,
      cutoff,
      ...result,
      batchFull: result.deleted >= settings.batchSize,
      durationMs: Math.round(performance.now() - t0),
    });
  }
  return {
    namespace: options.namespace,
    dryRun,
    startedAt: now.toISOString(),
    durationMs: Math.round(performance.now() - started),
    steps,
    total: steps.reduce((s, r) => s + r.deleted + r.orphanedEntities + r.orphanedRelations, 0),
  };
}
