import { LimitExceededError } from '../../errors.js';
import type { LlmUsageTotals } from '../../worker/index.js';
import type { Caller } from '../caller.js';

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
  const { pipeline } = caller.services;
  const [queue, { errors, usage }] = await Promise.all([pipeline.queueDepth(namespace), pipeline.aggregates(namespace)]);
  return { namespace, queue, worker: caller.services.workerState(), lastErrors: errors, llm: llmSummary(usage) };
}

export type PipelineStatusView = Awaited<ReturnType<typeof pipelineStatus>>;

/** The echo guard's counts of a namespace over the last `days` (1–365). */
export function echoTelemetry(caller: Caller, namespace: string, days: number) {
  if (!Number.isInteger(days) || days < 1 || days > 365)
    throw new LimitExceededError('days must be an integer from 1 to 365', { field: 'days' });
  return caller.services.upkeep.echoStats(namespace, new Date(Date.now() - days * 86_400_000).toISOString());
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
