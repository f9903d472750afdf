export { createWorker, STALE_LEASE_REAPER_MS, type Worker, type WorkerConfig, type WorkerDeps, type WorkerState } from './worker.js';
export { tickDelayMs } from './backoff.js';
export type { JobHandler } from './handlers/types.js';
export * from './queue/index.js';
