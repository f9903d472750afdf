// The queue operations (graphile/worker's habit: one file per operation, its statements beside it).
export { leaseJob } from './lease-job.js';
export { completeJob } from './complete-job.js';
export { llmUsage, type LlmUsageTotals } from './llm-usage.js';
export { failJob, storedJobError } from './fail-job.js';
export { extendLease } from './extend-lease.js';
export { releaseStaleLeases } from './release-stale-leases.js';
export { requeueJob } from './requeue-job.js';
export { jobsPage, MAX_JOBS_PAGE } from './jobs-page.js';
export { cachedQueueDepth, queueDepth } from './queue-depth.js';
export { lastErrors, type JobError } from './last-errors.js';
// enqueue: the only Job creator.
export { enqueue, jobName, type JobInput, type JobKind } from './enqueue.js';
