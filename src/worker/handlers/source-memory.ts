import { sourceMemory, type Executor } from '../../db/index.js';
import { UnavailableError } from '../../errors.js';
import type { SourceMemory } from '../../deep/index.js';

/**
 * The job's memory, or null when it was forgotten since the job was queued. The worker reads it
 * in the lease's bookmark chain; a memory the lease saw but this read does not (a replica that
 * has not caught up) is an error, so the job is retried rather than completed as skipped. Its
 * contentHash is the version every write of the job checks, inside its transaction.
 */
export async function loadSourceMemory(executor: Executor, id: string | null): Promise<SourceMemory | null> {
  if (!id) return null;
  const row = await sourceMemory(executor, id);
  if (!row) throw new UnavailableError(`memory ${id} of the leased job is not visible yet; the job will be retried`);
  if (row.forgotten) return null;
  const { forgotten: _forgotten, ...memory } = row;
  return memory;
}
