export { runRetention, RETENTION_STEPS, type RetentionReport, type RetentionSettings, type RetentionStepReport } from './run-retention.js';
export type { PurgeScope, PurgeStep, RetentionWindow, StepCounts } from '../../db/retention/index.js';
