import { classifyJobEntity, type ClassifyDeps } from '../../deep/index.js';
import type { JobHandler } from './job-handler.js';

/** `classify` jobs: one entity's rule-placed attributes sorted into aspects by the LLM. */
export function createClassifyHandler(deps: ClassifyDeps): JobHandler {
  return {
    kind: 'classify',
    run: (job) => classifyJobEntity(deps, job.id),
  };
}
