import { resolveNearDuplicate, type NearDuplicateDeps } from '../../deep/index.js';
import type { JobHandler } from './job-handler.js';

/** `dedup` jobs: the near-duplicate pair of the job's memory, decided by the model and applied. */
export function createDedupHandler(deps: NearDuplicateDeps): JobHandler {
  return {
    kind: 'dedup',
    async run(job) {
      if (!job.memoryId) return { skipped: 'memory not found or forgotten' };
      return resolveNearDuplicate(deps, job.memoryId);
    },
  };
}
