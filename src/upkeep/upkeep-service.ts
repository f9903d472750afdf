import {
  DEFAULT_DOCUMENT_POLL_MS,
  DEFAULT_EMBEDDING_TRACKER_POLL_MS,
  DEFAULT_MAINTENANCE_COOLDOWN_MS,
  DEFAULT_MAINTENANCE_HOURLY_BUDGET,
  type Config,
} from '../config/index.js';
import type { Executor } from '../db/index.js';
import type { Logger } from '../logger.js';
import type { RememberService, TextEmbedder } from '../write/index.js';
import {
  anyAddress,
  DocumentService,
  publicAddressesOnly,
  type AddressPolicy,
  type IngestInput,
  type Resolver,
} from '../documents/index.js';
import type { DocumentRecord } from '../db/index.js';
import { AspectFeedback } from './aspect-feedback-service.js';
import { echoStats, pruneCheckpoints } from '../db/index.js';
import { EmbeddingTracker, type EmbeddingTrackerStats } from './embedding-tracker-service.js';
import { ACTION_LIMITS, MaintenanceWorker, type MaintenanceMode, type MaintenanceReport } from './maintenance/index.js';
import { PeriodicTask, sharedSchedule } from './periodic.js';
import { retentionLoop, retentionSettings } from './retention-loop.js';
import { runRetention, type RetentionReport } from './retention/index.js';

export interface UpkeepDeps {
  executor: Executor;
  config: Config;
  logger: Logger;
  embedder: TextEmbedder;
  /** The write path: document chunks are stored through it (redaction, embedding, indexes). */
  remember: RememberService;
  /** Tests: which addresses the URL fetcher may connect to, and the resolver it asks. */
  fetchPolicy?: { allowAddress?: AddressPolicy; resolve?: Resolver };
}

/**
 * The store's upkeep in the worker process: the retention sweep (and, below, the embedding
 * tracker and the document ingest loop). Each loop is its own setTimeout chain.
 */
export class UpkeepService {
  private readonly loops: PeriodicTask[] = [];
  private lastRetention: RetentionReport | null = null;
  /** Null when EMBEDDING_TRACKER_ENABLED is false. */
  readonly tracker: EmbeddingTracker | null;
  readonly documents: DocumentService;
  readonly maintenance: MaintenanceWorker;
  /** Aspect feedback and its per-namespace telemetry (pipelineStatus.feedback). */
  readonly feedback: AspectFeedback;
  private readonly ingestLoop: PeriodicTask;

  constructor(private readonly deps: UpkeepDeps) {
    const { config } = deps;
    // A replica scoped to some namespaces (WORKER_NAMESPACES) keeps its upkeep to them too.
    const namespaces = config.WORKER_NAMESPACES.length > 0 ? config.WORKER_NAMESPACES : null;
    const retentionLogger = deps.logger.child({ component: 'retention' });
    this.loops.push(
      retentionLoop(deps.executor, config, retentionLogger, (r) => {
        this.lastRetention = r;
        // Checkpoints are pruned strictly after their own window (7 days), with the sweep.
        pruneCheckpoints(deps.executor, null).catch((error: unknown) => retentionLogger.warn({ err: error }, 'checkpoint pruning failed'));
      }),
    );
    this.tracker = config.EMBEDDING_TRACKER_ENABLED
      ? new EmbeddingTracker(
          deps.executor,
          deps.embedder,
          { pollMs: DEFAULT_EMBEDDING_TRACKER_POLL_MS, batchSize: config.EMBEDDING_TRACKER_BATCH_SIZE, namespaces },
          deps.logger.child({ component: 'embedding-tracker' }),
        )
      : null;
    this.feedback = new AspectFeedback(deps.executor);
    const maintenanceLogger = deps.logger.child({ component: 'maintenance' });
    this.maintenance = new MaintenanceWorker(
      deps.executor,
      {
        cooldownMs: DEFAULT_MAINTENANCE_COOLDOWN_MS,
        hourlyBudget: DEFAULT_MAINTENANCE_HOURLY_BUDGET,
        leaseTimeoutMs: config.WORKER_LEASE_TIMEOUT_MS,
        actionLimits: ACTION_LIMITS,
        autoActions: config.MAINTENANCE_AUTO_ACTIONS,
      },
      {
        retentionSweep: async (namespace) => (await this.runRetention(namespace, false)).total,
        reembed: () => this.tracker?.drain(50) ?? null,
      },
      maintenanceLogger,
    );
    this.loops.push(
      new PeriodicTask(
        'maintenance',
        config.MAINTENANCE_INTERVAL_MS,
        async () => {
          for (const scope of namespaces ?? [null]) await this.maintenance.tick(config.MAINTENANCE_MODE, scope, { scheduled: true });
        },
        maintenanceLogger,
        0,
        config.MAINTENANCE_INTERVAL_MS,
        sharedSchedule(deps.executor, 'maintenance', namespaces),
      ),
    );
    const docLogger = deps.logger.child({ component: 'documents' });
    this.documents = new DocumentService(
      deps.executor,
      deps.remember,
      {
        chunkSize: config.DOCUMENT_CHUNK_SIZE,
        chunkOverlap: config.DOCUMENT_CHUNK_OVERLAP,
        maxContentBytes: config.DOCUMENT_MAX_CONTENT_BYTES,
        fetchTimeoutMs: config.URL_FETCH_TIMEOUT_MS,
        allowAddress: deps.fetchPolicy?.allowAddress ?? (config.URL_FETCH_ALLOW_PRIVATE_NETWORKS ? anyAddress : publicAddressesOnly),
        ...(deps.fetchPolicy?.resolve ? { resolve: deps.fetchPolicy.resolve } : {}),
        maxAttempts: config.WORKER_MAX_ATTEMPTS,
        leaseTimeoutMs: config.WORKER_LEASE_TIMEOUT_MS,
        maxBatchSize: config.MAX_BATCH_SIZE,
        defaultNamespace: config.DEFAULT_NAMESPACE,
        namespaces,
      },
      docLogger,
    );
    // Drains the queue while documents wait; polls when idle (woken by ingest in this process).
    this.ingestLoop = new PeriodicTask(
      'documents',
      DEFAULT_DOCUMENT_POLL_MS,
      async () => ({ again: await this.documents.processNext() }),
      docLogger,
      0,
    );
  }

  /** Queues a document; the worker process's ingest loop picks it up (at once when it runs here). */
  async ingestDocument(input: IngestInput): Promise<DocumentRecord> {
    const document = await this.documents.ingest(input);
    this.ingestLoop.wake();
    return document;
  }

  trackerStats(): EmbeddingTrackerStats | null {
    return this.tracker?.snapshot() ?? null;
  }

  /** The echo guard's counts of a namespace since an ISO time (pipelineStatus.echoes). */
  echoStats(namespace: string, since: string) {
    return echoStats(this.deps.executor, namespace, since);
  }

  /** One sweep now, of one namespace or (null) all of them; a dry run only counts. */
  async runRetention(namespace: string | null, dryRun: boolean): Promise<RetentionReport> {
    const report = await runRetention(this.deps.executor, retentionSettings(this.deps.config), { namespace, dryRun });
    if (!dryRun && namespace === null) this.lastRetention = report;
    if (!dryRun) await pruneCheckpoints(this.deps.executor, namespace);
    this.deps.logger.info({ namespace, dryRun, total: report.total, durationMs: report.durationMs }, 'retention run');
    return report;
  }

  /** One maintenance cycle now (runMaintenance). */
  runMaintenance(namespace: string | null, mode: MaintenanceMode): Promise<MaintenanceReport> {
    return this.maintenance.tick(mode, namespace);
  }

  lastRetentionReport(): RetentionReport | null {
    return this.lastRetention;
  }

  /** Starts the loops, in worker replicas only (WORKER_ENABLED); API-only replicas leave upkeep to them. */
  start(): void {
    if (!this.deps.config.WORKER_ENABLED) return;
    for (const loop of this.loops) loop.start();
    this.tracker?.start();
    this.ingestLoop.start(0);
  }

  async stop(): Promise<void> {
    await Promise.all([...this.loops.map((l) => l.stop()), this.tracker?.stop(), this.ingestLoop.stop()]);
  }
}
