import { DEFAULT_RETENTION_BATCH_SIZE, type Config } from '../config/index.js';
import type { Executor } from '../db/index.js';
import type { Logger } from '../logger.js';
import { PeriodicTask, sharedSchedule } from './periodic.js';
import { runRetention, type RetentionReport, type RetentionSettings } from './retention/index.js';

/** A backlog is worked off in batch-sized sweeps a second apart, at most this many per interval. */
export const MAX_SWEEPS_PER_INTERVAL = 100;
const SWEEP_PAUSE_MS = 1000;
/** The first sweep a minute after start-up, not a whole interval later. */
const FIRST_SWEEP_MS = 60 * 1000;

export function retentionSettings(config: Config): RetentionSettings {
  return {
    windows: {
      tombstone: config.RETENTION_TOMBSTONE_DAYS,
      history: config.RETENTION_HISTORY_DAYS,
      completedJob: config.RETENTION_COMPLETED_JOB_DAYS,
      deadJob: config.RETENTION_DEAD_JOB_DAYS,
    },
    batchSize: DEFAULT_RETENTION_BATCH_SIZE,
  };
}

/** The periodic sweep over every namespace (RETENTION_INTERVAL_MS; 0 turns it off). */
export function retentionLoop(executor: Executor, config: Config, logger: Logger, onReport: (r: RetentionReport) => void): PeriodicTask {
  const settings = retentionSettings(config);
  let sweeps = 0;
  return new PeriodicTask(
    'retention',
    config.RETENTION_INTERVAL_MS,
    async () => {
      const report = await runRetention(executor, settings, { namespace: null });
      onReport(report);
      if (report.total > 0)
        logger.info(
          { total: report.total, durationMs: report.durationMs, steps: report.steps.map((s) => [s.step, s.deleted]) },
          'retention sweep',
        );
      sweeps = report.steps.some((s) => s.batchFull) ? sweeps + 1 : 0;
      if (sweeps >= MAX_SWEEPS_PER_INTERVAL) sweeps = 0;
      return { again: sweeps > 0 };
    },
    logger,
    SWEEP_PAUSE_MS,
    Math.min(FIRST_SWEEP_MS, config.RETENTION_INTERVAL_MS),
    sharedSchedule(executor, 'retention', null),
  );
}
