export { createWorker } from './worker.js';
export { PipelineService } from './pipeline-service.js';
// The queue's page bound and usage record live in src/db/jobs/; passed on for the edge, which reads the queue through PipelineService.
export { MAX_JOBS_PAGE, type LlmUsageTotals } from '../db/jobs/index.js';
