import type { Executor } from '../executor.js';
import { JOB_RETURN, type JobRecord } from '../records.js';

/** At most this many namespaces are listed for a "*" key. */
export const MAX_LISTED_NAMESPACES = 100;

// Distinct values read from the memory_namespace_created index, never the memories themselves.
export const NAMESPACES = `
MATCH (m:Memory) WHERE m.namespace IS NOT NULL
WITH DISTINCT m.namespace AS namespace
ORDER BY namespace
LIMIT toInteger($limit)
RETURN namespace`;

/** Namespaces holding memories, by name (at most MAX_LISTED_NAMESPACES). */
export async function storedNamespaces(executor: Executor): Promise<string[]> {
  const rows = await executor.read<{ namespace: string }>('explorer.namespaces', NAMESPACES, { limit: MAX_LISTED_NAMESPACES });
  return rows.map((row) => row.namespace);
}

// One seek of job_namespace_status per status, like the queue depth, grouped by kind.
export const QUEUE_BY_KIND = `
UNWIND $statuses AS status
CALL (status) {
  MATCH (j:Job)
  WHERE j.namespace = $namespace AND j.status = status
  RETURN j.kind AS kind, count(j) AS count
}
RETURN status, kind, count`;

export const JOB_STATUSES = ['pending', 'leased', 'completed', 'dead'] as const;
export type JobStatusName = (typeof JOB_STATUSES)[number];

export interface KindDepth extends Record<JobStatusName, number> {
  kind: string;
}

/** Jobs of one namespace counted by kind and status; kinds with no job are left out. */
export async function queueDepthByKind(executor: Executor, namespace: string): Promise<KindDepth[]> {
  const rows = await executor.read<{ status: JobStatusName; kind: string; count: number }>('explorer.queueByKind', QUEUE_BY_KIND, {
    namespace,
    statuses: [...JOB_STATUSES],
  });
  const byKind = new Map<string, KindDepth>();
  for (const row of rows) {
    const depth = byKind.get(row.kind) ?? { kind: row.kind, pending: 0, leased: 0, completed: 0, dead: 0 };
    depth[row.status] = row.count;
    byKind.set(row.kind, depth);
  }
  return [...byKind.values()].sort((a, b) => a.kind.localeCompare(b.kind));
}

/** At most this many jobs are listed for one memory. */
export const MAX_MEMORY_JOBS = 20;

export const MEMORY_JOBS = `
MATCH (m:Memory {id: $memoryId})<-[:FOR]-(j:Job)
WITH m, j ORDER BY j.createdAt, j.id LIMIT toInteger($limit)
RETURN ${JOB_RETURN('j', 'm')} AS job`;

/** The deep-path jobs queued for one memory, oldest first. */
export async function jobsOfMemory(executor: Executor, memoryId: string): Promise<JobRecord[]> {
  const rows = await executor.read<{ job: JobRecord }>('explorer.memoryJobs', MEMORY_JOBS, { memoryId, limit: MAX_MEMORY_JOBS });
  return rows.map((row) => row.job);
}
