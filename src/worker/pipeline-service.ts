import { jobsOfMemory, jobState, queueDepthByKind, type Executor, type JobRecord } from '../db/index.js';
import { jobsPage, lastErrors, llmUsage, queueDepth, requeueJob, type JobError, type LlmUsageTotals } from '../db/jobs/index.js';
import { revertProposal, type RevertResult } from '../deep/index.js';

/** How many of the latest job errors pipelineStatus shows. */
const LAST_ERRORS = 10;

/**
 * pipelineStatus's aggregates (model usage sums every metered job of the namespace; the last
 * errors) are shared for a few seconds per namespace, like the metrics' queue depth: a client
 * polling it, or many at once, runs them once per interval. The queue counts stay live.
 */
const PIPELINE_AGGREGATES_CACHE_MS = 5 * 1000;
const MAX_CACHED_NAMESPACES = 1_000;

export interface PipelineAggregates {
  errors: JobError[];
  usage: LlmUsageTotals;
}

type JobsPageQuery = Parameters<typeof jobsPage>[1];

/**
 * The deep path as the edge reads and steers it: the job queue (pages, depth, a job's state,
 * requeue), its errors and model usage, and the revert of an applied proposal.
 */
export class PipelineService {
  private readonly aggregateCache = new Map<string, { at: number; value: Promise<PipelineAggregates> }>();

  constructor(private readonly executor: Executor) {}

  /** Jobs oldest first, a page at a time. */
  jobs(query: JobsPageQuery) {
    return jobsPage(this.executor, query);
  }

  /** Puts a dead or completed job back in the queue; one outside `namespaces` (null = all) is NOT_FOUND. */
  requeue(id: string, namespaces: readonly string[] | null): Promise<JobRecord> {
    return requeueJob(this.executor, id, namespaces);
  }

  /** A memory's deep-path jobs. */
  jobsOfMemory(memoryId: string): Promise<JobRecord[]> {
    return jobsOfMemory(this.executor, memoryId);
  }

  /** A job's status by id, or null when it is gone. */
  async jobStatus(jobId: string): Promise<string | null> {
    return (await jobState(this.executor, jobId))?.status ?? null;
  }

  /** A namespace's jobs counted by status (live). */
  queueDepth(namespace: string) {
    return queueDepth(this.executor, namespace);
  }

  /** A namespace's jobs counted by kind and status. */
  queueByKind(namespace: string) {
    return queueDepthByKind(this.executor, namespace);
  }

  /** The last errors and the model usage of a namespace, at most PIPELINE_AGGREGATES_CACHE_MS old. */
  aggregates(namespace: string): Promise<PipelineAggregates> {
    const cache = this.aggregateCache;
    const now = Date.now();
    const hit = cache.get(namespace);
    if (hit && now - hit.at < PIPELINE_AGGREGATES_CACHE_MS) return hit.value;
    const value = Promise.all([lastErrors(this.executor, LAST_ERRORS, namespace), llmUsage(this.executor, namespace)]).then(
      ([errors, usage]) => ({ errors, usage }),
    );
    cache.delete(namespace); // re-inserted last: the oldest entry is the first evicted
    cache.set(namespace, { at: now, value });
    if (cache.size > MAX_CACHED_NAMESPACES) cache.delete(cache.keys().next().value!);
    value.catch(() => {
      if (cache.get(namespace)?.value === value) cache.delete(namespace);
    });
    return value;
  }

  /** Undoes an applied deep-path proposal, named by its history event; one outside `namespaces` is NOT_FOUND. */
  revert(eventId: string, options: { namespaces: readonly string[] | null; actor: string; reason?: string | null }): Promise<RevertResult> {
    return revertProposal(this.executor, eventId, options);
  }
}
