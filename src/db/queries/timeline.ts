import type { Executor } from '../executor.js';
import { MEMORY_RETURN, type MemoryRecord } from '../records.js';

// Neighbours in event time (occurredAt, else record time), ties broken by id so pages are
// stable. Each side aggregates inside its subquery, so an empty side still returns a row.
const TIMELINE = `
MATCH (a:Memory {id: $id})
WHERE a.namespace = $namespace
WITH a, coalesce(a.occurredAt, a.createdAt) AS t
CALL (a, t) {
  MATCH (m:Memory {namespace: a.namespace})
  WHERE m.deletedAt IS NULL AND m <> a
    AND (coalesce(m.occurredAt, m.createdAt) < t OR (coalesce(m.occurredAt, m.createdAt) = t AND m.id < a.id))
  WITH m ORDER BY coalesce(m.occurredAt, m.createdAt) DESC, m.id DESC LIMIT toInteger($before)
  RETURN collect(${MEMORY_RETURN('m')}) AS before
}
CALL (a, t) {
  MATCH (m:Memory {namespace: a.namespace})
  WHERE m.deletedAt IS NULL AND m <> a
    AND (coalesce(m.occurredAt, m.createdAt) > t OR (coalesce(m.occurredAt, m.createdAt) = t AND m.id > a.id))
  WITH m ORDER BY coalesce(m.occurredAt, m.createdAt), m.id LIMIT toInteger($after)
  RETURN collect(${MEMORY_RETURN('m')}) AS after
}
RETURN ${MEMORY_RETURN('a')} AS anchor, before, after`;

export interface TimelineRows {
  anchor: MemoryRecord;
  /** Oldest first. */
  before: MemoryRecord[];
  after: MemoryRecord[];
}

export async function timelineAround(executor: Executor, namespace: string, id: string, before: number, after: number): Promise<TimelineRows | null> {
  const [row] = await executor.read<{ anchor: MemoryRecord; before: MemoryRecord[]; after: MemoryRecord[] }>('timeline', TIMELINE, { namespace, id, before, after });
  return row ? { anchor: row.anchor, before: [...row.before].reverse(), after: row.after } : null;
}
