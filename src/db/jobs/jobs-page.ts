import neo4j from 'neo4j-driver';
import type { Executor } from '../executor.js';
import { JOB_RETURN, type JobRecord } from '../records.js';
import { ValidationError } from '../../errors.js';
import { decodeJobCursor, encodeJobCursor } from './job-cursor.js';

export const JOB_STATUSES = ['pending', 'leased', 'completed', 'dead'] as const;
export const JOB_KINDS = ['extract', 'hints', 'dedup', 'classify', 'compress'] as const;
export const MAX_JOBS_PAGE = 100;

// Oldest first; the cursor continues strictly after (createdAt, id). One query text per filter
// combination, so the planner seeks the index that matches it (cypher/006-job-indexes.cypher):
// (namespace, status, createdAt), (namespace, createdAt), (status, createdAt) or (createdAt).
// `$x IS NULL OR …` in one text would leave it a scan of every Job.
const jobsPageQuery = (byNamespace: boolean, byStatus: boolean) => `
MATCH (j:Job)
WHERE ${[byNamespace && 'j.namespace = $namespace', byStatus && 'j.status = $status', 'j.createdAt >= $afterCreatedAt'].filter(Boolean).join(' AND ')}
  AND (j.createdAt > $afterCreatedAt OR j.id > $afterId)
  AND ($kind IS NULL OR j.kind = $kind)
WITH j ORDER BY j.createdAt, j.id LIMIT toInteger($limit)
OPTIONAL MATCH (j)-[:FOR]->(m:Memory)
RETURN ${JOB_RETURN('j', 'm')} AS job
ORDER BY job.createdAt, job.id`;

export const JOBS_PAGE = {
  all: jobsPageQuery(false, false),
  byStatus: jobsPageQuery(false, true),
  byNamespace: jobsPageQuery(true, false),
  byNamespaceAndStatus: jobsPageQuery(true, true),
};

function jobsPageCypher(namespace: unknown, status: unknown): string {
  if (namespace != null) return status != null ? JOBS_PAGE.byNamespaceAndStatus : JOBS_PAGE.byNamespace;
  return status != null ? JOBS_PAGE.byStatus : JOBS_PAGE.all;
}

export interface JobsPageQuery {
  namespace?: string | null;
  status?: string | null;
  kind?: string | null;
  first: number;
  after?: string | null;
}

export interface JobsPage {
  edges: Array<{ cursor: string; node: JobRecord }>;
  pageInfo: { hasNextPage: boolean; endCursor: string | null };
}

export async function jobsPage(executor: Executor, query: JobsPageQuery): Promise<JobsPage> {
  if (!Number.isInteger(query.first) || query.first < 1 || query.first > MAX_JOBS_PAGE) {
    throw new ValidationError(`first must be an integer from 1 to ${MAX_JOBS_PAGE}`, { field: 'first' });
  }
  if (query.status != null && !(JOB_STATUSES as readonly string[]).includes(query.status)) {
    throw new ValidationError(`status must be one of ${JOB_STATUSES.join(', ')}`, { field: 'status' });
  }
  if (query.kind != null && !(JOB_KINDS as readonly string[]).includes(query.kind)) {
    throw new ValidationError(`kind must be one of ${JOB_KINDS.join(', ')}`, { field: 'kind' });
  }
  const after = query.after ? decodeJobCursor(query.after) : null;
  const rows = await executor.read<{ job: JobRecord }>('jobs.page', jobsPageCypher(query.namespace, query.status), {
    namespace: query.namespace ?? null,
    status: query.status ?? null,
    kind: query.kind ?? null,
    // Without a cursor every job qualifies: '' sorts before any timestamp and any id.
    afterCreatedAt: after?.createdAt ?? '',
    afterId: after?.id ?? '',
    limit: neo4j.int(query.first + 1),
  });
  const page = rows.slice(0, query.first).map((r) => r.job);
  const edges = page.map((node) => ({ cursor: encodeJobCursor(node), node }));
  return { edges, pageInfo: { hasNextPage: rows.length > query.first, endCursor: edges.at(-1)?.cursor ?? null } };
}
