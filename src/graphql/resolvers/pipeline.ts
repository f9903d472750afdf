import type { Executor } from '../../db/index.js';
import {
  jobsPage,
  lastErrors,
  llmUsage,
  MAX_JOBS_PAGE,
  queueDepth,
  requeueJob,
  type JobError,
  type LlmUsageTotals,
} from '../../worker/index.js';
import { pageSize } from '../../api/index.js';
import type { JobResolvers, MutationResolvers, QueryResolvers } from '../generated/types.js';
import { writableNamespaces } from '../../api/index.js';
import { revertProposal } from '../../deep/index.js';

const LAST_ERRORS = 10;
// No feedback loop writes these counters yet; the fields stay in the contract at zero.
const NO_FEEDBACK = { aspectsUpdated: 0, ftsConfirmations: 0, decayedAspects: 0, propagatedAttributes: 0 };

/**
 * pipelineStatus's aggregates (model usage sums every metered job of the namespace; the last
 * errors) are shared for a few seconds per namespace, like the metrics' queue depth: a client
 * polling it, or many at once, runs them once per interval. The queue counts stay live.
 */
export const PIPELINE_AGGREGATES_CACHE_MS = 5 * 1000;
const MAX_CACHED_NAMESPACES = 1_000;

interface Aggregates {
  errors: JobError[];
  usage: LlmUsageTotals;
}

const aggregateCaches = new WeakMap<Executor, Map<string, { at: number; value: Promise<Aggregates> }>>();

function pipelineAggregates(executor: Executor, namespace: string): Promise<Aggregates> {
  let cache = aggregateCaches.get(executor);
  if (!cache) aggregateCaches.set(executor, (cache = new Map()));
  const now = Date.now();
  const hit = cache.get(namespace);
  if (hit && now - hit.at < PIPELINE_AGGREGATES_CACHE_MS) return hit.value;
  const value = Promise.all([lastErrors(executor, LAST_ERRORS, namespace), llmUsage(executor, namespace)]).then(([errors, usage]) => ({
    errors,
    usage,
  }));
  cache.delete(namespace); // re-inserted last: the oldest entry is the first evicted
  cache.set(namespace, { at: now, value });
  if (cache.size > MAX_CACHED_NAMESPACES) cache.delete(cache.keys().next().value!);
  value.catch(() => {
    if (cache.get(namespace)?.value === value) cache.delete(namespace);
  });
  return value;
}

/** The deep-path queue, through the worker's queue operations (src/worker/queue). */
export const pipelineQueries: Pick<QueryResolvers, 'jobs' | 'pipelineStatus'> = {
  jobs: (_, { namespace, status, kind, first, after }, ctx) =>
    jobsPage(ctx.caller.services.executor, {
      namespace: ctx.caller.namespaceFor(namespace, 'read'),
      status,
      kind,
      first: pageSize(first, Math.min(ctx.caller.services.config.MAX_PAGE_SIZE, MAX_JOBS_PAGE)),
      after,
    }),

  pipelineStatus: async (_, { namespace }, ctx) => {
    const ns = ctx.caller.namespaceFor(namespace, 'read');
    const [queue, { errors, usage }] = await Promise.all([
      queueDepth(ctx.caller.services.executor, ns),
      pipelineAggregates(ctx.caller.services.executor, ns),
    ]);
    return {
      queue,
      worker: ctx.caller.services.workerState(),
      lastErrors: errors.map((e) => ({ ...e, kind: e.kind as never })),
      feedback: NO_FEEDBACK,
      llm: llmSummary(usage),
    };
  },
};

export const pipelineMutations: Pick<MutationResolvers, 'requeueJob' | 'revertProposal'> = {
  // Jobs and events outside the caller's namespaces are NOT_FOUND, like missing ones.
  requeueJob: (_, { id }, ctx) => requeueJob(ctx.caller.services.executor, id, writableNamespaces(ctx.caller)),
  revertProposal: (_, { eventId, reason }, ctx) =>
    revertProposal(ctx.caller.services.executor, eventId, {
      namespaces: writableNamespaces(ctx.caller),
      actor: ctx.caller.principal.name,
      reason,
    }),
};

export const Job: JobResolvers = {
  kind: (j) => j.kind as never,
  status: (j) => j.status as never,
  memory: (j, _, ctx) => (j.memoryId ? ctx.caller.loaders.memoryById.load(j.memoryId) : null),
};

function llmSummary({ byKind, memories }: LlmUsageTotals) {
  const tokens = byKind.reduce((sum, r) => sum + r.promptTokens + r.evalTokens, 0);
  return {
    byKind: byKind.map((r) => ({
      ...r,
      kind: r.kind as never,
      tokensPerJob: r.jobs > 0 ? (r.promptTokens + r.evalTokens) / r.jobs : 0,
      durationMsPerJob: r.jobs > 0 ? r.durationMs / r.jobs : 0,
    })),
    tokensPerMemory: memories > 0 ? tokens / memories : 0,
  };
}
