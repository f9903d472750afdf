export { UpkeepService, type UpkeepDeps } from './upkeep-service.js';
export { runRetention, RETENTION_STEPS, type RetentionReport, type RetentionStepReport } from './retention/index.js';
export { retentionSettings } from './retention-loop.js';
export { PeriodicTask, sharedSchedule } from './periodic.js';
export { AspectFeedback } from './aspect-feedback-service.js';
