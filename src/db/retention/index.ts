// The retention sweep's purge steps, one file each (upkeep/retention runs them in order).
export { type PurgeScope, type PurgeStep, type RetentionWindow, type StepCounts } from './purge-step.js';
export { purgeChunks } from './purge-chunks.js';
export { purgeHistory } from './purge-history.js';
export { purgeCompletedJobs, purgeDeadJobs } from './purge-jobs.js';
export { purgeMentions } from './purge-mentions.js';
export { purgeTombstones } from './purge-tombstones.js';
