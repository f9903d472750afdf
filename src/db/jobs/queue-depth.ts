import type { Executor } from '../executor.js';

export interface QueueDepth {
  pending: number;
  leased: number;
  completed: number;
  dead: number;
}

/** Metrics scrapes from every replica share one count per interval instead of one scan each. */
export const DEFAULT_QUEUE_DEPTH_CACHE_MS = 15 * 1000;
const STATUSES = ['pending', 'leased', 'completed', 'dead'] as const;

// One index seek per status (job_status_available / job_namespace_status), never a label scan.
export const QUEUE_DEPTH = `
UNWIND $statuses AS status
CALL (status) {
  MATCH (j:Job)
  WHERE j.status = status AND ($namespace IS NULL OR j.namespace = $namespace)
  RETURN count(j) AS count
}
RETURN status, count`;

export async function queueDepth(executor: Executor, namespace: string | null = null): Promise<QueueDepth> {
  const rows = await executor.read<{ status: string; count: number }>('jobs.depth', QUEUE_DEPTH, { namespace, statuses: [...STATUSES] });
  const depth: QueueDepth = { pending: 0, leased: 0, completed: 0, dead: 0 };
  for (const row of rows) if (row.status in depth) depth[row.status as keyof QueueDepth] = row.count;
  return depth;
}

/**
 * The queue depth at most `ttlMs` old: one query per interval however often it is asked for;
 * callers that arrive while a count runs share it.
 */
export function cachedQueueDepth(executor: Executor, ttlMs = DEFAULT_QUEUE_DEPTH_CACHE_MS): () => Promise<QueueDepth> {
  let cached: { at: number; depth: Promise<QueueDepth> } | null = null;
  return () => {
    const now = Date.now();
    if (!cached || now - cached.at >= ttlMs) {
      const depth = queueDepth(executor);
      cached = { at: now, depth };
      depth.catch(() => {
        if (cached?.depth === depth) cached = null;
      });
    }
    return cached.depth;
  };
}
