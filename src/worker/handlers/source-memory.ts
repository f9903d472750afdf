import type { Executor } from '../../db/index.js';
import { UnavailableError } from '../../errors.js';
import type { SourceMemory } from '../../deep/index.js';

const SOURCE_MEMORY = `
MATCH (m:Memory {id: $id})
RETURN m.id AS id, m.namespace AS namespace, m.content AS content, m.contentHash AS contentHash, m.source AS source,
       m.sessionId AS sessionId, m.occurredAt AS occurredAt, m.deletedAt IS NOT NULL AS forgotten`;

/**
 * The job's memory, or null when it was forgotten since the job was queued. The worker reads it
 * in the lease's bookmark chain; a memory the lease saw but this read does not (a replica that
 * has not caught up) is an error, so the job is retried rather than completed as skipped. Its
 * contentHash is the version every write of the job checks, inside its transaction.
 */
export async function loadSourceMemory(executor: Executor, id: string | null): Promise<SourceMemory | null> {
  if (!id) return null;
  const rows = await executor.read<SourceMemory & { forgotten: boolean } & Record<string, unknown>>('worker.source-memory', SOURCE_MEMORY, {
    id,
  });
  const row = rows[0];
  if (!row) throw new UnavailableError(`memory ${id} of the leased job is not visible yet; the job will be retried`);
  if (row.forgotten) return null;
  const { forgotten: _forgotten, ...memory } = row;
  return memory;
}
