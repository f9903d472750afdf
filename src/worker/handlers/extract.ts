import { processMemory, type DeepPathDeps } from '../../deep/index.js';
import { loadSourceMemory } from './source-memory.js';
import type { JobHandler } from './job-handler.js';

/** `extract` jobs: the deep path for the job's memory. A forgotten memory completes as skipped. */
export function createExtractHandler(deps: DeepPathDeps): JobHandler {
  return {
    kind: 'extract',
    async run(job) {
      const memory = await loadSourceMemory(deps.executor, job.memoryId);
      if (!memory) return { skipped: 'memory not found or forgotten' };
      return processMemory(deps, memory);
    },
  };
}
