// The queue operations (graphile/worker's habit: one file per operation, its statements beside it).
export { leaseJob, LEASE_WINDOW, type LeaseOptions } from './lease-job.js';
export { completeJob } from './complete-job.js';
export { llmUsage, type LlmUsageByKind, type LlmUsageTotals, type JobLlmUsage, type JobUsageCounts } from './llm-usage.js';
export { failJob, jobRetryDelayMs, JOB_RETRY_CAP_MS, MAX_ERROR_CHARS, storedJobError } from './fail-job.js';
export { extendLease } from './extend-lease.js';
export { releaseStaleLeases } from './release-stale-leases.js';
export { requeueJob } from './requeue-job.js';
export { jobsPage, JOB_KINDS, JOB_STATUSES, MAX_JOBS_PAGE, type JobsPage, type JobsPageQuery } from './jobs-page.js';
export { cachedQueueDepth, DEFAULT_QUEUE_DEPTH_CACHE_MS, queueDepth, type QueueDepth } from './queue-depth.js';
export { lastErrors, type JobError } from './last-errors.js';
export { encodeJobCursor, decodeJobCursor, type JobCursor } from './job-cursor.js';
// enqueue: the only Job creator.
export { enqueue, jobName, ENQUEUE, type JobInput, type JobKind, type JobTarget } from './enqueue.js';
