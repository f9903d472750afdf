import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { LlmUsage } from '../llm/index.js';

/** Seconds; operations and embeddings span a few milliseconds to tens of seconds. */
const LATENCY_BUCKETS_S = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
/** Seconds; a recall stage is usually a few milliseconds. */
const STAGE_BUCKETS_S = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];
/** Client-chosen operation names become label values: past this many, new ones count as "other". */
export const MAX_OPERATION_LABELS = 100;
const OPERATION_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;
const STAGE_NAME = /^[a-z][a-z0-9_]{0,31}$/;
const JOB_STATUSES = ['pending', 'leased', 'completed', 'dead'] as const;

export type OperationOutcome = 'ok' | 'error';
export type QueueDepthSource = () => Promise<Record<(typeof JOB_STATUSES)[number], number>>;

/**
 * The service's Prometheus metrics, in a registry of their own (so several servers can live in
 * one process, as in the tests), plus Node's default process metrics.
 */
export class Metrics {
  readonly registry = new Registry();
  private readonly operationNames = new Set<string>();
  private queueDepthSource: QueueDepthSource | null = null;

  readonly operationDuration = new Histogram({
    name: 'mnemograph_graphql_operation_duration_seconds',
    help: 'GraphQL operations over HTTP, from request to response, by operation name and outcome',
    labelNames: ['operation', 'outcome'] as const,
    buckets: LATENCY_BUCKETS_S,
    registers: [this.registry],
  });

  readonly recallStageDuration = new Histogram({
    name: 'mnemograph_recall_stage_duration_seconds',
    help: 'Time spent in each recall stage (embed, vector, keyword, hints, boost, load, rank, rerank, budget, total)',
    labelNames: ['stage'] as const,
    buckets: STAGE_BUCKETS_S,
    registers: [this.registry],
  });

  readonly embeddingDuration = new Histogram({
    name: 'mnemograph_embedding_duration_seconds',
    help: 'Time of one embed call (all its batches), for writes, recalls and the worker alike',
    buckets: LATENCY_BUCKETS_S,
    registers: [this.registry],
  });

  readonly llmTokens = new Counter({
    name: 'mnemograph_llm_tokens_total',
    help: 'Tokens the model server reported for deep-path jobs, by job kind, model and direction (prompt or eval)',
    labelNames: ['kind', 'model', 'direction'] as const,
    registers: [this.registry],
  });

  readonly llmCalls = new Counter({
    name: 'mnemograph_llm_calls_total',
    help: 'Model calls made by deep-path jobs, by job kind and model',
    labelNames: ['kind', 'model'] as const,
    registers: [this.registry],
  });

  readonly llmDuration = new Counter({
    name: 'mnemograph_llm_duration_seconds_total',
    help: 'Model time the server reported for deep-path jobs (total_duration), by job kind and model',
    labelNames: ['kind', 'model'] as const,
    registers: [this.registry],
  });

  readonly embeddedTexts = new Counter({
    name: 'mnemograph_embedded_texts_total',
    help: 'Texts embedded (chunks and queries)',
    registers: [this.registry],
  });

  constructor() {
    const metrics = this;
    new Gauge({
      name: 'mnemograph_job_queue_depth',
      help: 'Deep-path jobs by status, counted in Neo4j at scrape time',
      labelNames: ['status'] as const,
      registers: [this.registry],
      async collect() {
        const depth = await metrics.queueDepthSource?.().catch(() => null);
        // An unreachable Neo4j leaves no stale numbers behind; /health/ready tells why.
        this.reset();
        if (depth) for (const status of JOB_STATUSES) this.set({ status }, depth[status]);
      },
    });
    collectDefaultMetrics({ register: this.registry });
  }

  /** Where the queue depth gauge reads job counts from at each scrape. */
  trackQueueDepth(source: QueueDepthSource): void {
    this.queueDepthSource = source;
  }

  observeOperation(operationName: string | null | undefined, outcome: OperationOutcome, seconds: number): void {
    this.operationDuration.observe({ operation: this.operationLabel(operationName), outcome }, seconds);
  }

  /** Stage timings as the recall service reports them, in milliseconds. */
  observeRecall(timingsMs: Record<string, number>, totalMs: number): void {
    for (const [stage, ms] of Object.entries(timingsMs)) {
      if (STAGE_NAME.test(stage) && Number.isFinite(ms)) this.recallStageDuration.observe({ stage }, ms / 1000);
    }
    if (Number.isFinite(totalMs)) this.recallStageDuration.observe({ stage: 'total' }, totalMs / 1000);
  }

  observeEmbedding(texts: number, seconds: number): void {
    this.embeddingDuration.observe(seconds);
    this.embeddedTexts.inc(texts);
  }

  /** One job attempt's model usage; kinds and models come from configuration, never from clients. */
  observeLlmUsage(kind: string, model: string, usage: LlmUsage): void {
    this.llmCalls.inc({ kind, model }, usage.calls);
    this.llmTokens.inc({ kind, model, direction: 'prompt' }, usage.promptTokens);
    this.llmTokens.inc({ kind, model, direction: 'eval' }, usage.evalTokens);
    this.llmDuration.inc({ kind, model }, usage.totalDurationMs / 1000);
  }

  private operationLabel(name: string | null | undefined): string {
    if (!name) return 'anonymous';
    if (!OPERATION_NAME.test(name)) return 'invalid';
    if (this.operationNames.has(name)) return name;
    if (this.operationNames.size >= MAX_OPERATION_LABELS) return 'other';
    this.operationNames.add(name);
    return name;
  }
}
