import type { Executor } from '../../db/executor.js';
import type { SourceMemory } from '../../extraction/index.js';

const SOURCE_MEMORY = `
MATCH (m:Memory {id: $id})
WHERE m.deletedAt IS NULL
RETURN m.id AS id, m.namespace AS namespace, m.content AS content, m.source AS source,
       m.sessionId AS sessionId, m.occurredAt AS occurredAt`;

/** The job's memory, or null when it was forgotten since the job was queued. */
export async function loadSourceMemory(executor: Executor, id: string | null): Promise<SourceMemory | null> {
  if (!id) return null;
  const rows = await executor.read<SourceMemory & Record<string, unknown>>('worker.source-memory', SOURCE_MEMORY, { id });
  return rows[0] ?? null;
}
