import type { Executor } from '../../db/executor.js';

export interface QueueDepth {
  pending: number;
  leased: number;
  completed: number;
  dead: number;
}

const QUEUE_DEPTH = `
MATCH (j:Job)
WHERE $namespace IS NULL OR j.namespace = $namespace
RETURN j.status AS status, count(*) AS count`;

export async function queueDepth(executor: Executor, namespace: string | null = null): Promise<QueueDepth> {
  const rows = await executor.read<{ status: string; count: number }>('jobs.depth', QUEUE_DEPTH, { namespace });
  const depth: QueueDepth = { pending: 0, leased: 0, completed: 0, dead: 0 };
  for (const row of rows) if (row.status in depth) depth[row.status as keyof QueueDepth] = row.count;
  return depth;
}
