import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AccessPolicy } from './auth.js';
import { DEFAULT_ACCESS_MAX_PENDING, DEFAULT_EMBEDDING_MODEL, type Config } from './config/index.js';
import { MnemographError } from './errors.js';
import { createDriver, ensureVectorIndex, Executor, migrate, schemaVersion, warmUpIndexes } from './db/index.js';
import { createEmbedder, type Embedder } from './embedding/index.js';
import { KnowledgeService, NamespaceTransfer } from './knowledge/index.js';
import type { LlmHealth } from './llm/index.js';
import type { Logger } from './logger.js';
import { Metrics, observeEmbedder, observeRecall } from './observability/index.js';
import { configureStoredRedaction } from './redaction/index.js';
import { RememberService, type RememberSettings } from './write/index.js';
import { UpdateService } from './write/index.js';
import { DisclosureService } from './recall/index.js';
import { RecallService } from './recall/index.js';
import { AccessTracker } from './recall/index.js';
import { UpkeepService } from './upkeep/index.js';
import { SessionService, SessionUpkeep, type SessionSettings } from './sessions/index.js';
import { createWorker, PipelineService } from './worker/index.js';
import { cachedQueueDepth } from './db/jobs/index.js';

export const CYPHER_DIR = fileURLToPath(new URL('../cypher/', import.meta.url));
/** Where `npm run model:provision` puts the model; used when EMBEDDING_MODEL_DIR is not set. */
export const PROVISIONED_MODEL_DIR = fileURLToPath(new URL('../.models/', import.meta.url));

/** The configured model folder, else the provisioned one if present, else remote download. */
function modelDirFor(config: Config): string | undefined {
  if (config.EMBEDDING_MODEL_DIR) return config.EMBEDDING_MODEL_DIR;
  return existsSync(join(PROVISIONED_MODEL_DIR, config.EMBEDDING_MODEL)) ? PROVISIONED_MODEL_DIR : undefined;
}

/** Everything a request or a worker may use, built once per process. */
export interface Services {
  config: Config;
  logger: Logger;
  executor: Executor;
  embedder: Embedder;
  access: AccessPolicy;
  remember: RememberService;
  /** updateMemory: the write path re-run on an existing memory. */
  update: UpdateService;
  recall: RecallService;
  /** Recall's access counts, flushed in the background (best-effort). */
  accessTracker: AccessTracker;
  disclosure: DisclosureService;
  /** Structured writes without an LLM: entities, relations, asserted facts, merges, namespace erasure. */
  knowledge: KnowledgeService;
  /** A namespace that can move: exportNamespace and importNamespace as JSON Lines (docs/export-import.md). */
  transfer: NamespaceTransfer;
  /** Prometheus metrics (GET /metrics); embed and recall calls are observed through proxies. */
  metrics: Metrics;
  /** Retention, the embedding tracker and document ingestion (started and stopped with the worker). */
  upkeep: UpkeepService;
  /** Session lifecycle: start context, checkpoints, recovery, end (src/sessions). */
  sessions: SessionService;
  /** Idle-session sweep, decay pass and compression threshold (started and stopped with the worker). */
  sessionUpkeep: SessionUpkeep;
  /** The deep path as the edge reads and steers it: jobs, queue depth, errors, model usage, revert (src/worker). */
  pipeline: PipelineService;
  startWorker(): void;
  stopWorker(): Promise<void>;
  workerState(): WorkerState;
  /** The deep path's model provider(s) and whether each answers, for health (never a key). */
  llmHealth(): Promise<LlmHealth>;
}

export interface WorkerState {
  running: boolean;
  workerId: string | null;
  processed: number;
  failed: number;
  lastTickAt: string | null;
  llmAvailable: boolean;
  mode: string;
}

export interface AppOptions {
  neo4jUri: string;
  embedder?: Embedder;
  /** Wraps the executor every service uses (tests replay committed transactions through it). */
  wrapExecutor?: (executor: Executor) => Executor;
}

/** The composition root: wires config into services. No I/O beyond creating the driver. */
/** The embedders createServices made itself (not one passed in, which its owner may share): closeServices stops their model thread. */
const ownEmbedders = new WeakSet<object>();

export function createServices(config: Config, logger: Logger, options: AppOptions): Services {
  const executor = createExecutor(config, logger, options);
  const metrics = new Metrics();
  metrics.trackQueueDepth(cachedQueueDepth(executor));
  const embedder = createObservedEmbedder(config, options, metrics);
  const rememberSettings = rememberSettingsFor(config, embedder);
  configureStoredRedaction(rememberSettings.redaction);
  const remember = new RememberService(executor, embedder, rememberSettings, logger.child({ component: 'remember' }));
  const accessTracker = new AccessTracker(
    executor,
    { flushMs: config.ACCESS_FLUSH_MS, maxPending: DEFAULT_ACCESS_MAX_PENDING },
    logger.child({ component: 'access' }),
  );
  accessTracker.start();
  const recall = observeRecall(
    new RecallService(executor, embedder, config, logger.child({ component: 'recall' }), accessTracker),
    metrics,
  );
  const update = new UpdateService(executor, embedder, rememberSettings, logger.child({ component: 'update' }));
  const upkeep = new UpkeepService({ executor, embedder, remember, config, logger: logger.child({ component: 'upkeep' }) });
  const worker = createWorker({
    executor,
    embedder,
    remember,
    update,
    config,
    feedback: upkeep.feedback,
    logger: logger.child({ component: 'worker' }),
    onLlmUsage: (kind, model, usage) => metrics.observeLlmUsage(kind, model, usage),
    ...(config.WORKER_NAMESPACES.length > 0 ? { namespaces: config.WORKER_NAMESPACES } : {}),
  });
  const sessions = new SessionService(executor, recall, sessionSettingsFor(config), logger.child({ component: 'sessions' }));
  const sessionUpkeep = new SessionUpkeep(executor, sessions, config, logger.child({ component: 'session-upkeep' }));
  return {
    config,
    logger,
    executor,
    embedder,
    access: new AccessPolicy(config.API_KEYS),
    remember,
    update,
    recall,
    accessTracker,
    disclosure: new DisclosureService(executor, recall, (text) => embedder.countTokens(text)),
    knowledge: new KnowledgeService(
      executor,
      remember,
      { redaction: rememberSettings.redaction, minFactConfidence: config.MIN_FACT_CONFIDENCE, frozen: config.MUTATIONS_FROZEN },
      logger.child({ component: 'knowledge' }),
    ),
    transfer: new NamespaceTransfer({
      executor,
      embedder,
      redaction: rememberSettings.redaction,
      logger: logger.child({ component: 'transfer' }),
    }),
    metrics,
    upkeep,
    sessions,
    sessionUpkeep,
    pipeline: new PipelineService(executor),
    startWorker: () => {
      worker.start();
      upkeep.start();
      sessionUpkeep.start();
    },
    stopWorker: async () => {
      await Promise.all([worker.stop(), upkeep.stop(), sessionUpkeep.stop()]);
    },
    workerState: () => worker.state(),
    llmHealth: () => worker.llmHealth(),
  };
}

/** The driver and the Executor every service shares (wrapped when the caller asks: tests replay or fail transactions). */
function createExecutor(config: Config, logger: Logger, options: AppOptions): Executor {
  if (!config.NEO4J_PASSWORD) throw new MnemographError('CONFIG_INVALID', 'NEO4J_PASSWORD is required to connect to NEO4J_URI');
  const driver = createDriver({
    uri: options.neo4jUri,
    user: config.NEO4J_USER,
    password: config.NEO4J_PASSWORD,
    database: config.NEO4J_DATABASE,
  });
  const base = new Executor(driver, config.NEO4J_DATABASE, logger.child({ component: 'neo4j' }), {
    readMs: config.NEO4J_READ_TIMEOUT_MS,
    writeMs: config.NEO4J_WRITE_TIMEOUT_MS,
  });
  return options.wrapExecutor?.(base) ?? base;
}

/** The embedder passed in, else the configured model's (then closeServices stops it); observed by the metrics. */
function createObservedEmbedder(config: Config, options: AppOptions, metrics: Metrics): Embedder {
  const embedder = observeEmbedder(options.embedder ?? configuredEmbedder(config), metrics);
  if (!options.embedder) ownEmbedders.add(embedder);
  return embedder;
}

/** EMBEDDING_PROVIDER's embedder: the local model, or an OpenAI-compatible server's (its key from EMBEDDING_API_KEY, else OPENAI_API_KEY). */
function configuredEmbedder(config: Config): Embedder {
  if (config.EMBEDDING_PROVIDER === 'local')
    return createEmbedder({
      modelName: config.EMBEDDING_MODEL,
      modelDir: modelDirFor(config),
      batchSize: config.EMBEDDING_BATCH_SIZE,
      quantized: config.EMBEDDING_QUANTIZED,
      threads: config.EMBEDDING_THREADS,
    });
  if (config.EMBEDDING_MODEL === DEFAULT_EMBEDDING_MODEL)
    throw new MnemographError(
      'CONFIG_INVALID',
      "EMBEDDING_PROVIDER=openai needs EMBEDDING_MODEL set to the server's model (text-embedding-3-small, …)",
    );
  return createEmbedder({
    provider: 'openai',
    model: config.EMBEDDING_MODEL,
    baseUrl: config.EMBEDDING_BASE_URL ?? config.OPENAI_BASE_URL,
    apiKey: config.EMBEDDING_API_KEY ?? config.OPENAI_API_KEY,
    batchSize: config.EMBEDDING_BATCH_SIZE,
    tokenizerDir: config.EMBEDDING_MODEL_DIR ?? (existsSync(PROVISIONED_MODEL_DIR) ? PROVISIONED_MODEL_DIR : undefined),
  });
}

/** The write path's settings; the dedup thresholds default to the model's own. */
function rememberSettingsFor(config: Config, embedder: Embedder): RememberSettings {
  return {
    defaultNamespace: config.DEFAULT_NAMESPACE,
    maxContentChars: config.MAX_CONTENT_CHARS,
    maxMetadataBytes: config.MAX_METADATA_BYTES,
    maxBatchSize: config.MAX_BATCH_SIZE,
    redaction: { enabled: config.REDACTION_ENABLED, redactEmails: config.REDACT_EMAILS, extraPatterns: config.REDACTION_EXTRA_PATTERNS },
    duplicateThreshold: config.DEDUP_DUPLICATE_THRESHOLD ?? embedder.profile.duplicateThreshold,
    nearDuplicateThreshold: config.DEDUP_NEAR_THRESHOLD ?? embedder.profile.nearDuplicateThreshold,
    minImportanceToStore: config.MIN_IMPORTANCE_TO_STORE,
    // Disabling the pipeline stops processing, not enqueueing: the backlog runs once it is enabled.
    enqueueExtract: true,
    enqueueHints: config.HINTS_ENABLED,
    maxJobAttempts: config.WORKER_MAX_ATTEMPTS,
  };
}

function sessionSettingsFor(config: Config): SessionSettings {
  return {
    enabled: config.SESSIONS_ENABLED,
    checkpointPrompts: config.SESSION_CHECKPOINT_PROMPTS,
    checkpointIntervalMs: config.SESSION_CHECKPOINT_INTERVAL_MS,
    recoveryBudgetChars: config.SESSION_RECOVERY_BUDGET_CHARS,
    startBudgetChars: config.SESSION_START_BUDGET_CHARS,
    idleTimeoutMs: config.SESSION_IDLE_TIMEOUT_MS,
    globalNamespace: config.SESSION_GLOBAL_NAMESPACE || null,
    maxJobAttempts: config.WORKER_MAX_ATTEMPTS,
    maxTranscriptChars: config.MAX_CONTENT_CHARS,
  };
}

/** Connects, applies migrations and loads the model: after this the service is ready. */
export async function prepareServices(services: Services): Promise<void> {
  await services.executor.verifyConnectivity();
  const report = await migrate(services.executor, CYPHER_DIR, services.logger.child({ component: 'migrate' }));
  services.logger.info({ schemaVersion: report.version, applied: report.applied }, 'schema ready');
  try {
    await services.embedder.load();
  } catch (error) {
    // A missing or corrupt model must stop start-up with a reason an operator can act on.
    if (error instanceof MnemographError) throw error;
    const where = modelDirFor(services.config) ?? 'the download cache';
    throw new MnemographError(
      'UNAVAILABLE',
      `embedding model ${services.config.EMBEDDING_MODEL} failed to load from ${where} (${(error as Error).message}); run npm run model:provision or fix EMBEDDING_MODEL_DIR`,
      { cause: error },
    );
  }
  // The vector index has the model's dimension (a provider's model may not have the local 384).
  const index = await ensureVectorIndex(services.executor, services.embedder.dimensions, services.logger.child({ component: 'migrate' }));
  if (index.rebuilt) services.logger.info({ vectorIndex: index }, 'vector index rebuilt; the embedding tracker re-embeds the store');
  // Ready means the first recall after a restart answers like the next: every index it reads opened once.
  const warm = await warmUpIndexes(services.executor, services.embedder.dimensions);
  services.logger.info({ warmUp: warm }, 'indexes warmed up');
  await warmUpHotPaths(services);
}

/**
 * What the warm-up's remember says: people, a place, tools and a decision, so the linker's every
 * pass and the statements that write mentions, aliases and attributes run (and are planned) once.
 */
const WARM_UP_TEXT =
  'Dana Whitfield decided on Monday that the Lisbon team moves its billing service from MySQL to PostgreSQL 16; ' +
  'Omar Haddad prefers Grafana dashboards for the migration and must not touch the payments API before March.';

/** How long start-up waits for the hot paths' warm-up before it says ready anyway. */
const HOT_PATH_WARM_UP_MS = 20_000;

/**
 * The first recalls and remembers after a start answer like the next ones: the model runs once
 * and every statement on their paths is planned, by one recall (read-only) and one remember whose
 * write transaction is rolled back, in the default namespace — nothing is written. Bounded in
 * time; a failure or a timeout is logged and start-up goes on (the requests then pay for it).
 */
async function warmUpHotPaths(services: Services): Promise<void> {
  const started = performance.now();
  const namespace = services.config.DEFAULT_NAMESPACE;
  const work = (async () => {
    await services.recall.warmUp(namespace);
    const [outcome] = await services.remember.rememberBatch(
      [
        {
          content: `Start-up warm-up of the write path (rolled back, never stored, ${randomUUID()}): ${WARM_UP_TEXT}`,
          namespace,
          sessionId: 'warm-up',
        },
      ],
      { rollBack: true },
    );
    if (outcome?.error) throw outcome.error;
  })();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), HOT_PATH_WARM_UP_MS);
  });
  try {
    const result = await Promise.race([work.then(() => 'done' as const), timeout]);
    const tookMs = Math.round(performance.now() - started);
    if (result === 'timeout') services.logger.warn({ tookMs }, 'hot-path warm-up still running at its bound; ready without it');
    else services.logger.info({ tookMs }, 'recall and remember warmed up');
  } catch (error) {
    services.logger.warn({ error }, 'hot-path warm-up failed; ready without it');
  } finally {
    clearTimeout(timer);
    work.catch(() => undefined); // a warm-up left running past its bound ends on its own
  }
}

export async function closeServices(services: Services): Promise<void> {
  await services.accessTracker.close();
  await services.executor.close();
  if (ownEmbedders.has(services.embedder)) await services.embedder.dispose();
}

export { schemaVersion };
