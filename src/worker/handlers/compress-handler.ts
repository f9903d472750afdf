import { compressSessionJob, type CompressDeps } from '../../deep/index.js';
import type { JobHandler } from './job-handler.js';

/** `compress` jobs: one old episodic session summarized into a semantic memory. */
export function createCompressHandler(deps: CompressDeps): JobHandler {
  return {
    kind: 'compress',
    run: (job) => compressSessionJob(deps, job.id),
  };
}
