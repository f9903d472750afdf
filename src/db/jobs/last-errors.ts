import neo4j from 'neo4j-driver';
import type { Executor } from '../executor.js';

export interface JobError {
  jobId: string;
  kind: string;
  error: string;
  at: string;
}

// Newest failures first, read backwards along the (namespace, failedAt) or (failedAt) index
// (cypher/006-job-indexes.cypher) until `limit` rows: never a scan of every Job.
const lastErrorsQuery = (byNamespace: boolean) => `
MATCH (j:Job)
WHERE ${byNamespace ? 'j.namespace = $namespace AND ' : ''}j.failedAt IS NOT NULL AND j.error IS NOT NULL
RETURN j.id AS jobId, j.kind AS kind, j.error AS error, j.failedAt AS at
ORDER BY j.failedAt DESC, j.id
LIMIT toInteger($limit)`;

export const LAST_ERRORS = lastErrorsQuery(false);
export const LAST_ERRORS_IN_NAMESPACE = lastErrorsQuery(true);

/** The most recent job failures, newest first. */
export async function lastErrors(executor: Executor, n: number, namespace: string | null = null): Promise<JobError[]> {
  if (n <= 0) return [];
  return executor.read<JobError & Record<string, unknown>>(
    'jobs.last-errors',
    namespace === null ? LAST_ERRORS : LAST_ERRORS_IN_NAMESPACE,
    { namespace, limit: neo4j.int(Math.min(n, 100)) },
  );
}
