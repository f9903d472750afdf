import type { Executor } from '../db/index.js';
import { countStaleChunks, findStaleChunks, writeChunkVectors, type TrackerScope } from '../db/index.js';
import type { Logger } from '../logger.js';
import type { TextEmbedder } from '../write/index.js';
import { PeriodicTask } from './periodic.js';

/** Idle cycles back off up to this pause: a converged store changes only on a model switch. */
const MAX_IDLE_MS = 60 * 1000;

export interface EmbeddingTrackerStats {
  running: boolean;
  model: string;
  processed: number;
  failed: number;
  skippedCycles: number;
  lastCycleAt: string | null;
  queueDepth: number;
}

export interface EmbeddingTrackerSettings {
  pollMs: number;
  batchSize: number;
  /** Only these namespaces (WORKER_NAMESPACES); null: every namespace. */
  namespaces: readonly string[] | null;
}

/**
 * The embedding tracker: each cycle finds a small batch of stale chunks,
 * embeds them outside any transaction, and writes the batch in one transaction. A model-name
 * change re-embeds the whole store this way while recall keeps serving the old vectors.
 */
export class EmbeddingTracker {
  private readonly stats: EmbeddingTrackerStats;
  private readonly loop: PeriodicTask;
  private idle = 0;

  constructor(
    private readonly executor: Executor,
    private readonly embedder: TextEmbedder,
    private readonly settings: EmbeddingTrackerSettings,
    private readonly logger: Logger,
  ) {
    this.stats = { running: false, model: embedder.modelId, processed: 0, failed: 0, skippedCycles: 0, lastCycleAt: null, queueDepth: 0 };
    this.loop = new PeriodicTask(
      'embedding-tracker',
      settings.pollMs,
      async () => {
        const written = await this.cycle();
        this.idle = written > 0 ? 0 : this.idle + 1;
        return written > 0 ? { again: true } : { delayMs: Math.min(settings.pollMs * 2 ** Math.min(this.idle - 1, 10), MAX_IDLE_MS) };
      },
      logger,
      0,
    );
  }

  private get scope(): TrackerScope {
    return { model: this.embedder.modelId, namespaces: this.settings.namespaces };
  }

  /** One cycle; returns how many chunks it re-embedded (0: nothing was stale, or the embedder failed). */
  async cycle(): Promise<number> {
    this.stats.lastCycleAt = new Date().toISOString();
    const stale = await findStaleChunks(this.executor, this.scope, this.settings.batchSize);
    if (stale.length === 0) {
      this.stats.queueDepth = 0;
      return 0;
    }
    let vectors: Float32Array[];
    try {
      vectors = await this.embedder.embed(stale.map((c) => c.text));
    } catch (error) {
      // The embedder is unavailable: skip the cycle, try again at the next one.
      this.stats.skippedCycles += 1;
      this.stats.failed += stale.length;
      this.logger.warn({ err: error, chunks: stale.length }, 'embedding tracker: embedding failed; cycle skipped');
      return 0;
    }
    const written = await writeChunkVectors(
      this.executor,
      this.scope,
      stale.map((c, i) => ({ id: c.id, contentHash: c.contentHash, embedding: Array.from(vectors[i]!) })),
    );
    this.stats.processed += written;
    this.stats.queueDepth = stale.length < this.settings.batchSize ? 0 : await countStaleChunks(this.executor, this.scope);
    return written;
  }

  /** Cycles until nothing is stale (tests, operators); bounded by `maxCycles`. */
  async drain(maxCycles = 10_000): Promise<number> {
    let total = 0;
    for (let i = 0; i < maxCycles; i += 1) {
      const n = await this.cycle();
      total += n;
      if (n === 0) break;
    }
    return total;
  }

  start(): void {
    this.stats.running = true;
    this.loop.start(0);
  }

  async stop(): Promise<void> {
    this.stats.running = false;
    await this.loop.stop();
  }

  snapshot(): EmbeddingTrackerStats {
    return { ...this.stats, model: this.embedder.modelId };
  }
}
