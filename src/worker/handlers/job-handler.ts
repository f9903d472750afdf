import type { JobRecord } from '../../db/index.js';

/** One module per job kind. `run` resolves with the job's result or throws to fail the attempt. */
export interface JobHandler {
  readonly kind: string;
  run(job: JobRecord): Promise<unknown>;
}
