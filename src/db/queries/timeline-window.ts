import type { Executor } from '../executor.js';
import { MEMORY_RETURN, type MemoryRecord } from '../records.js';

// Neighbours in time by timelineKey (event time, record time, position in the batch; see
// remember-service.ts). Each side aggregates inside its subquery, so an empty side still returns a row.
// Ordered by the (namespace, timelineKey) index's whole key, so the index gives the order and each
// side reads only its `$before` / `$after` entries instead of the namespace's every memory on that side.
export const TIMELINE = `
MATCH (a:Memory {id: $id})
WHERE a.namespace = $namespace
CALL (a) {
  MATCH (m:Memory {namespace: a.namespace})
  USING INDEX m:Memory(namespace, timelineKey)
  WHERE m.timelineKey < a.timelineKey AND m.deletedAt IS NULL
  WITH m ORDER BY m.namespace DESC, m.timelineKey DESC LIMIT toInteger($before)
  RETURN collect(${MEMORY_RETURN('m')}) AS before
}
CALL (a) {
  MATCH (m:Memory {namespace: a.namespace})
  USING INDEX m:Memory(namespace, timelineKey)
  WHERE m.timelineKey > a.timelineKey AND m.deletedAt IS NULL
  WITH m ORDER BY m.namespace, m.timelineKey LIMIT toInteger($after)
  RETURN collect(${MEMORY_RETURN('m')}) AS after
}
RETURN ${MEMORY_RETURN('a')} AS anchor, before, after`;

export interface TimelineRows {
  anchor: MemoryRecord;
  /** Oldest first. */
  before: MemoryRecord[];
  after: MemoryRecord[];
}

export async function timelineAround(
  executor: Executor,
  namespace: string,
  id: string,
  before: number,
  after: number,
): Promise<TimelineRows | null> {
  const [row] = await executor.read<{ anchor: MemoryRecord; before: MemoryRecord[]; after: MemoryRecord[] }>('timeline', TIMELINE, {
    namespace,
    id,
    before,
    after,
  });
  return row ? { anchor: row.anchor, before: [...row.before].reverse(), after: row.after } : null;
}
