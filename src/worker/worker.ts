import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { DEFAULT_CLASSIFY_BATCH_SIZE, type Config } from '../config/index.js';
import { ConsistencyScope, withConsistency } from '../consistency/index.js';
import { MnemographError } from '../errors.js';
import type { Executor } from '../db/index.js';
import type { JobRecord } from '../db/index.js';
import {
  ContentHashEmbeddingCache,
  pipelineMode,
  writesAllowed,
  type FactWriter,
  type MemoryUpdater,
  type PipelineMode,
} from '../deep/index.js';
import {
  cachedProviderReport,
  createLlmProvider,
  emptyUsage,
  isLlmError,
  meterUsage,
  type LlmHealth,
  type LlmProvider,
  type LlmUsage,
} from '../llm/index.js';
import type { Logger } from '../logger.js';
import type { TextEmbedder } from '../write/index.js';
import { tickDelayMs } from './backoff.js';
import { BUDGET_WINDOW_MS, NamespaceBudget } from './namespace-budget.js';
import { createClassifyHandler } from './handlers/classify-handler.js';
import { createCompressHandler } from './handlers/compress-handler.js';
import { createDedupHandler } from './handlers/dedup-handler.js';
import { createExtractHandler } from './handlers/extract.js';
import { createHintsHandler } from './handlers/hints-handler.js';
import { createSessionEndHandler } from './handlers/session-end-handler.js';
import type { JobHandler } from './handlers/job-handler.js';
import type { FeedbackSink } from '../sessions/index.js';
import { AspectFeedback } from '../upkeep/index.js';
import { completeJob, extendLease, failJob, leaseJob, releaseStaleLeases, storedJobError } from '../db/jobs/index.js';

export const STALE_LEASE_REAPER_MS = 60 * 1000;

export type WorkerConfig = Pick<
  Config,
  | 'PIPELINE_ENABLED'
  | 'PIPELINE_SHADOW_MODE'
  | 'MUTATIONS_FROZEN'
  | 'ALLOW_UPDATE_DELETE'
  | 'HINTS_ENABLED'
  | 'HINTS_MAX'
  | 'OLLAMA_HOST'
  | 'OLLAMA_MODEL'
  | 'LLM_PROVIDER'
  | 'LLM_MODEL'
  | 'OPENAI_BASE_URL'
  | 'OPENAI_API_KEY'
  | 'ANTHROPIC_BASE_URL'
  | 'ANTHROPIC_API_KEY'
  | 'LLM_CLAUDE_CODE_BIN'
  | 'EXTRACTION_TIMEOUT_MS'
  | 'MIN_FACT_CONFIDENCE'
  | 'DEDUP_LLM_ENABLED'
  | 'CLASSIFY_LLM_ENABLED'
  | 'WORKER_MAX_ATTEMPTS'
  | 'SEMANTIC_CONTRADICTION_ENABLED'
  | 'WORKER_ENABLED'
  | 'WORKER_POLL_MS'
  | 'WORKER_LEASE_TIMEOUT_MS'
  | 'WORKER_RETRY_BASE_MS'
  | 'LLM_BUDGET_CALLS'
>;

export interface WorkerDeps {
  executor: Executor;
  embedder: TextEmbedder;
  /** The write path (RememberService); extracted facts are stored through it. */
  remember: FactWriter;
  /** The update path (UpdateService): a near-duplicate merge rewrites the older memory through it. */
  update?: MemoryUpdater;
  config: WorkerConfig;
  logger: Logger;
  /** Defaults to LLM_PROVIDER's provider or chain (Ollama at OLLAMA_HOST with OLLAMA_MODEL alone by default). */
  provider?: LlmProvider;
  /** Lease only jobs of these namespaces (per-tenant workers, isolated tests); all when absent. */
  namespaces?: readonly string[];
  /** Told what each job attempt's model calls cost (metrics). */
  onLlmUsage?: (kind: string, model: string, usage: LlmUsage) => void;
  /** Aspect feedback the session-end job records (the upkeep's, so its telemetry counts it); a private one when absent. */
  feedback?: FeedbackSink;
}

export interface WorkerState {
  running: boolean;
  workerId: string;
  processed: number;
  failed: number;
  lastTickAt: string | null;
  llmAvailable: boolean;
  mode: PipelineMode;
}

export interface Worker {
  start(): void;
  /** Stops polling and waits for the job in flight, if any. */
  stop(): Promise<void>;
  state(): WorkerState;
  /** The configured provider(s) and whether each answers (health; never a key), checked at most every 30 s. */
  llmHealth(): Promise<LlmHealth>;
}

/**
 * The deep-path worker: a setTimeout chain that leases one job per tick, runs the handler for
 * its kind, and completes or fails it. A failure never escapes the loop; it backs off instead.
 */
/** What one worker holds: its id and logger, the pipeline mode, the model provider and its health, the kinds it leases, its counters and budget. */
function workerParts(deps: WorkerDeps) {
  const { executor, config } = deps;
  const workerId = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  const logger = deps.logger.child({ component: 'worker', workerId });
  const mode = pipelineMode(config);
  const provider = deps.provider ?? createLlmProvider(config);
  const handlers = createHandlers(deps, provider, mode, logger);
  const counters: Counters = { processed: 0, failed: 0, lastTickAt: null, llmAvailable: false };
  const budget = new NamespaceBudget(config.LLM_BUDGET_CALLS, BUDGET_WINDOW_MS);
  const jobs: JobRunner = { executor, workerId, provider, handlers, config, counters, logger, budget, onLlmUsage: deps.onLlmUsage };
  return {
    workerId,
    logger,
    mode,
    provider,
    llmHealth: cachedProviderReport(provider),
    kinds: leasedKinds(config, mode),
    counters,
    budget,
    jobs,
  };
}

export function createWorker(deps: WorkerDeps): Worker {
  const { executor, config } = deps;
  const { workerId, logger, mode, provider, llmHealth, kinds, counters, budget, jobs } = workerParts(deps);

  let running = false;
  let timer: NodeJS.Timeout | undefined;
  let reaper: NodeJS.Timeout | undefined;
  let inFlight: Promise<void> | null = null;
  let reaping: Promise<void> | null = null;
  let consecutiveFailures = 0;

  function schedule(delayMs: number): void {
    if (!running) return;
    timer = setTimeout(() => {
      timer = undefined;
      // One bookmark chain per job: the lease's bookmark goes with every read of the job's data.
      inFlight = withConsistency(new ConsistencyScope(), tick).finally(() => {
        inFlight = null;
      });
    }, delayMs);
  }

  async function tick(): Promise<void> {
    counters.lastTickAt = new Date().toISOString();
    let delay = config.WORKER_POLL_MS;
    try {
      const job = await leaseJob(executor, workerId, kinds, { namespaces: deps.namespaces ?? null, waiting: budget.exhausted() });
      if (job) {
        const ok = await runJob(jobs, job);
        consecutiveFailures = ok ? 0 : consecutiveFailures + 1;
        // Drain the queue while it has work; back off while attempts keep failing.
        delay = ok ? 0 : tickDelayMs(consecutiveFailures, config.WORKER_POLL_MS);
      } else {
        consecutiveFailures = 0;
      }
    } catch (error) {
      consecutiveFailures += 1;
      delay = tickDelayMs(consecutiveFailures, config.WORKER_POLL_MS);
      logger.warn({ err: error, retryInMs: delay }, 'worker tick failed');
    }
    schedule(delay);
  }

  return {
    start() {
      if (running) return;
      if (!config.WORKER_ENABLED || mode === 'disabled') {
        logger.info({ mode, workerEnabled: config.WORKER_ENABLED }, 'deep-path worker not started');
        return;
      }
      running = true;
      const runReaper = () => {
        reaping ??= reap(jobs).finally(() => {
          reaping = null;
        });
      };
      reaper = setInterval(runReaper, STALE_LEASE_REAPER_MS);
      reaper.unref();
      runReaper();
      logger.info({ mode, kinds, model: provider.model }, 'deep-path worker started');
      schedule(0);
    },
    async stop() {
      running = false;
      if (timer) clearTimeout(timer);
      timer = undefined;
      if (reaper) clearInterval(reaper);
      reaper = undefined;
      await Promise.all([inFlight, reaping]);
    },
    state: () => ({ running, workerId, mode, ...counters }),
    llmHealth,
  };
}

type Counters = Omit<WorkerState, 'running' | 'workerId' | 'mode'>;

/** What running one job needs: the worker's identity, its handlers and the counters it keeps. */
interface JobRunner {
  executor: Executor;
  workerId: string;
  provider: LlmProvider;
  handlers: ReadonlyMap<string, JobHandler>;
  config: WorkerConfig;
  counters: Counters;
  logger: Logger;
  /** Each job attempt's model calls count against its namespace's budget. */
  budget: NamespaceBudget;
  onLlmUsage: WorkerDeps['onLlmUsage'];
}

/** One handler per job kind, wired from the configuration. */
function createHandlers(deps: WorkerDeps, provider: LlmProvider, mode: PipelineMode, logger: Logger): Map<string, JobHandler> {
  const { executor, config } = deps;
  // Planning and the fact writes share it: each fact is embedded once.
  const factEmbedder = new ContentHashEmbeddingCache(deps.embedder);
  const llmTimeoutMs = config.EXTRACTION_TIMEOUT_MS;
  return new Map<string, JobHandler>(
    [
      createExtractHandler({
        executor,
        embedder: factEmbedder,
        writer: deps.remember,
        provider,
        logger,
        settings: {
          mode,
          llmTimeoutMs,
          minFactConfidence: config.MIN_FACT_CONFIDENCE,
          semantic: { enabled: config.SEMANTIC_CONTRADICTION_ENABLED, timeoutMs: config.EXTRACTION_TIMEOUT_MS },
          classify: { enabled: config.CLASSIFY_LLM_ENABLED, maxAttempts: config.WORKER_MAX_ATTEMPTS },
        },
      }),
      createHintsHandler({ executor, provider, timeoutMs: llmTimeoutMs, maxHints: config.HINTS_MAX }),
      createClassifyHandler({ executor, provider, settings: { llmTimeoutMs, batchSize: DEFAULT_CLASSIFY_BATCH_SIZE } }),
      createCompressHandler({ executor, provider, writer: deps.remember, settings: { llmTimeoutMs } }),
      createDedupHandler({
        executor,
        provider,
        updater: deps.update,
        logger,
        settings: { mode, llmTimeoutMs, minConfidence: config.MIN_FACT_CONFIDENCE },
      }),
      createSessionEndHandler({
        executor,
        writer: deps.remember,
        provider,
        feedback: deps.feedback ?? new AspectFeedback(executor),
        logger,
        settings: { llmTimeoutMs },
      }),
    ].map((h) => [h.kind, h]),
  );
}

/**
 * The job kinds this worker leases. Disabled: nothing runs. Frozen: extraction still audits
 * proposals, hints wait (they would write). Near-duplicate decisions are audited in every mode and
 * applied only in a writing one. Session summaries write only their session (and aspect weights):
 * every mode but frozen.
 */
function leasedKinds(config: WorkerConfig, mode: PipelineMode): string[] {
  if (mode === 'disabled') return [];
  return [
    'extract',
    ...(config.HINTS_ENABLED && mode !== 'frozen' ? ['hints'] : []),
    ...(config.DEDUP_LLM_ENABLED ? ['dedup'] : []),
    ...(config.CLASSIFY_LLM_ENABLED && mode !== 'frozen' ? ['classify'] : []),
    ...(writesAllowed(mode) ? ['compress'] : []),
    ...(mode !== 'frozen' ? ['session_end'] : []),
  ];
}

/** Runs one leased job under a lease heartbeat and completes or fails it; true when it succeeded. */
async function runJob(runner: JobRunner, job: JobRecord): Promise<boolean> {
  const { executor, workerId, provider, config, counters } = runner;
  const jobLogger = runner.logger.child({ jobId: job.id, kind: job.kind, attempt: job.attempts });
  const heartbeat = setInterval(
    () => {
      extendLease(executor, job.id, workerId).catch((error: unknown) => jobLogger.warn({ err: error }, 'lease heartbeat failed'));
    },
    Math.max(1000, Math.floor(config.WORKER_LEASE_TIMEOUT_MS / 3)),
  );
  heartbeat.unref();
  let usage = emptyUsage();
  const llm = () => ({ model: provider.model, usage });
  try {
    const handler = runner.handlers.get(job.kind);
    if (!handler) throw new Error(`no handler for job kind "${job.kind}"`);
    const metered = await meterUsage(() => handler.run(job));
    usage = metered.usage;
    runner.budget.record(job.namespace, usage.calls);
    if (usage.calls > 0) runner.onLlmUsage?.(job.kind, provider.model, usage);
    if (metered.outcome.status === 'rejected') throw metered.outcome.reason;
    const result = metered.outcome.value;
    if (!(await completeJob(executor, job.id, workerId, result, { llm: llm() })))
      jobLogger.warn('job finished after its lease was lost; result not recorded');
    counters.processed += 1;
    counters.llmAvailable = true;
    jobLogger.info({ result, llmCalls: usage.calls, promptTokens: usage.promptTokens, evalTokens: usage.evalTokens }, 'job completed');
    return true;
  } catch (error) {
    counters.failed += 1;
    if (isLlmError(error)) counters.llmAvailable = false;
    // Redacted and bounded here already: the log line below carries it too.
    const message = storedJobError(`attempt ${job.attempts}/${job.maxAttempts}: ${describe(error)}`);
    const status = await failJob(executor, job.id, workerId, message, {
      attempts: job.attempts,
      retryBaseMs: config.WORKER_RETRY_BASE_MS,
      llm: llm(),
      permanent: isPermanent(error),
    }).catch((failError: unknown) => {
      // Neo4j itself is failing; the stale-lease reaper will return the job to the queue.
      jobLogger.error({ err: failError }, 'could not record the job failure');
      return null;
    });
    // An LLM outage is expected operation: one line, no stack.
    const detail = isLlmError(error) ? { error: message } : { err: error };
    jobLogger.warn({ ...detail, status }, status === 'dead' ? 'job failed for the last time: dead' : 'job failed; will retry');
    return false;
  } finally {
    clearInterval(heartbeat);
  }
}

/** Returns the leases of crashed workers to the queue, and notes whether the model answers. */
async function reap(runner: JobRunner): Promise<void> {
  try {
    const released = await releaseStaleLeases(runner.executor, runner.config.WORKER_LEASE_TIMEOUT_MS);
    if (released > 0) runner.logger.warn({ released }, 'released stale job leases');
  } catch (error) {
    runner.logger.warn({ err: error }, 'stale lease reaper failed');
  }
  runner.counters.llmAvailable = await runner.provider.available().catch(() => false);
}

function describe(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  return String(error);
}

/** Errors that say so (a refused request, invalid input) are not retried; unknown ones are. */
function isPermanent(error: unknown): boolean {
  return error instanceof MnemographError && !error.retriable && error.code !== 'INTERNAL';
}
