import { echoStats, type Executor } from '../../db/index.js';
import { LimitExceededError } from '../../errors.js';
import { lastErrors, llmUsage, queueDepth, type JobError, type LlmUsageTotals } from '../../worker/index.js';
import type { Caller } from '../caller.js';

const LAST_ERRORS = 10;

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

function llmSummary({ byKind, memories }: LlmUsageTotals) {
  const tokens = byKind.reduce((sum, r) => sum + r.promptTokens + r.evalTokens, 0);
  return {
    byKind: byKind.map((r) => ({
      ...r,
      tokensPerJob: r.jobs > 0 ? (r.promptTokens + r.evalTokens) / r.jobs : 0,
      durationMsPerJob: r.jobs > 0 ? r.durationMs / r.jobs : 0,
    })),
    tokensPerMemory: memories > 0 ? tokens / memories : 0,
  };
}

/**
 * The deep path of a namespace (DEFAULT_NAMESPACE when absent): queue depth, the last errors,
 * model usage and the worker's state. `namespace` says which one was asked about: the parts
 * answered only when asked for (feedback, sessions) are of that namespace.
 */
export async function pipelineStatus(caller: Caller, request: { namespace?: string | null }) {
  const namespace = caller.namespaceFor(request.namespace, 'read');
  const [queue, { errors, usage }] = await Promise.all([
    queueDepth(caller.services.executor, namespace),
    pipelineAggregates(caller.services.executor, namespace),
  ]);
  return { namespace, queue, worker: caller.services.workerState(), lastErrors: errors, llm: llmSummary(usage) };
}

export type PipelineStatusView = Awaited<ReturnType<typeof pipelineStatus>>;

/** The echo guard's counts of a namespace over the last `days` (1–365). */
export function echoTelemetry(caller: Caller, namespace: string, days: number) {
  if (!Number.isInteger(days) || days < 1 || days > 365)
    throw new LimitExceededError('days must be an integer from 1 to 365', { field: 'days' });
  return echoStats(caller.services.executor, namespace, new Date(Date.now() - days * 86_400_000).toISOString());
}

/** The namespace's aspect feedback counters. */
export function feedbackTelemetry(caller: Caller, namespace: string) {
  return caller.services.upkeep.feedback.snapshot(namespace);
}

/*
 * Process-wide upkeep state: it counts every namespace of this replica, so only a caller who may
 * read all of them (a "*" key, or open mode) sees it; others get null.
 */
const seesAll = (caller: Caller) => caller.principal.readableNamespaces === null;

export function lastMaintenance(caller: Caller) {
  return seesAll(caller) ? caller.services.upkeep.maintenance.lastReport() : null;
}

export function embeddingTracker(caller: Caller) {
  return seesAll(caller) ? caller.services.upkeep.trackerStats() : null;
}

export function lastRetention(caller: Caller) {
  return seesAll(caller) ? caller.services.upkeep.lastRetentionReport() : null;
}
