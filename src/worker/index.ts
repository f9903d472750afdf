export { createWorker, STALE_LEASE_REAPER_MS, type Worker, type WorkerConfig, type WorkerDeps, type WorkerState } from './worker.js';
export { PipelineService } from './pipeline-service.js';
export { tickDelayMs } from './backoff.js';
export type { JobHandler } from './handlers/types.js';
// The queue operations live in src/db/jobs/; passed on for the callers that reach the queue through the worker.
export {
  cachedQueueDepth,
  completeJob,
  decodeJobCursor,
  DEFAULT_QUEUE_DEPTH_CACHE_MS,
  encodeJobCursor,
  extendLease,
  failJob,
  JOB_KINDS,
  JOB_RETRY_CAP_MS,
  JOB_STATUSES,
  jobRetryDelayMs,
  jobsPage,
  lastErrors,
  LEASE_WINDOW,
  leaseJob,
  llmUsage,
  MAX_JOBS_PAGE,
  queueDepth,
  releaseStaleLeases,
  requeueJob,
  storedJobError,
  type JobCursor,
  type JobError,
  type JobLlmUsage,
  type JobsPage,
  type JobsPageQuery,
  type LeaseOptions,
  type LlmUsageByKind,
  type LlmUsageTotals,
  type QueueDepth,
} from '../db/index.js';
