import { runSessionEnd, type SessionEndDeps } from '../../sessions/index.js';
import type { JobHandler } from './job-handler.js';

/** `session_end` jobs: an ended session summarized, its continuity scored, its aspect feedback recorded. */
export function createSessionEndHandler(deps: SessionEndDeps): JobHandler {
  return {
    kind: 'session_end',
    run: (job) => runSessionEnd(deps, job.id),
  };
}
