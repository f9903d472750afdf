import neo4j from 'neo4j-driver';
import type { Executor } from '../../db/executor.js';

export interface JobError {
  jobId: string;
  kind: string;
  error: string;
  at: string;
}

const LAST_ERRORS = `
MATCH (j:Job)
WHERE j.failedAt IS NOT NULL AND j.error IS NOT NULL AND ($namespace IS NULL OR j.namespace = $namespace)
RETURN j.id AS jobId, j.kind AS kind, j.error AS error, j.failedAt AS at
ORDER BY j.failedAt DESC, j.id
LIMIT toInteger($limit)`;

/** The most recent job failures, newest first. */
export async function lastErrors(executor: Executor, n: number, namespace: string | null = null): Promise<JobError[]> {
  if (n <= 0) return [];
  return executor.read<JobError & Record<string, unknown>>('jobs.last-errors', LAST_ERRORS, { namespace, limit: neo4j.int(Math.min(n, 100)) });
}
