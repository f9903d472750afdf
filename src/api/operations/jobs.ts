import type { JobRecord } from '../../db/index.js';
import { MAX_JOBS_PAGE } from '../../worker/index.js';
import type { Caller } from '../caller.js';
import { writableNamespaces } from '../guards.js';
import { pageSize } from '../limits.js';

/** Deep-path jobs of a namespace, oldest first, a page at a time. */
export function jobs(
  caller: Caller,
  request: { namespace?: string | null; status?: string | null; kind?: string | null; first?: number | null; after?: string | null },
) {
  return caller.services.pipeline.jobs({
    namespace: caller.namespaceFor(request.namespace, 'read'),
    status: request.status,
    kind: request.kind,
    first: pageSize(request.first, Math.min(caller.limits.maxPageSize, MAX_JOBS_PAGE)),
    after: request.after,
  });
}

/** Puts a dead or completed job back in the queue; a job outside the caller's namespaces is NOT_FOUND. */
export function requeueJob(caller: Caller, id: string): Promise<JobRecord> {
  return caller.services.pipeline.requeue(id, writableNamespaces(caller));
}

/** A memory's deep-path jobs (the memory itself was already checked against the caller's namespaces). */
export function memoryJobs(caller: Caller, memoryId: string): Promise<JobRecord[]> {
  return caller.services.pipeline.jobsOfMemory(memoryId);
}

/** The status of a job by id (a session's end job), or null when it is gone. */
export async function jobStatus(caller: Caller, jobId: string): Promise<{ id: string; status: string } | null> {
  const status = await caller.services.pipeline.jobStatus(jobId);
  return status ? { id: jobId, status } : null;
}
