import { DEFAULT_SESSION_SWEEP_INTERVAL_MS, type Config } from '../config/index.js';
import type { Executor, JobRecord } from '../db/index.js';
import { namespacesOverCompressionThreshold } from '../db/index.js';
import { queueSessionCompression } from '../deep/index.js';
import type { Logger } from '../logger.js';
import { PeriodicTask, sharedSchedule } from '../upkeep/index.js';
import { runDecayPass, type DecayReport } from './decay-pass.js';
import type { SessionService } from './session-service.js';

/**
 * Sessions a check queues per namespace over the threshold: the oldest half of the threshold (at
 * least one), as the design's compression algorithm takes them (sessions_to_compress =
 * compression_threshold / 2); the next check takes the next half while the namespace stays over.
 */
export function sessionsPerCompression(threshold: number): number {
  return Math.max(1, Math.floor(threshold / 2));
}
const COMPRESSION_MAX_NAMESPACES = 100;
/** A pass that filled a batch runs again after this pause, up to this many times in a row. */
const AGAIN_MS = 1_000;
const MAX_PASSES_IN_A_ROW = 100;

export interface SessionUpkeepStats {
  idleEnded: number;
  lastIdleSweepAt: string | null;
  decay: DecayReport | null;
  compressionQueued: number;
  lastCompressionCheckAt: string | null;
}

/**
 * The loops that run without being called, in worker replicas: the idle-session sweep
 * (SESSION_IDLE_TIMEOUT_MS; 0 turns it off), the decay pass (DECAY_INTERVAL_MS) and the
 * compression threshold (COMPRESSION_AUTO_INTERVAL_MS).
 */
export class SessionUpkeep {
  private readonly loops: PeriodicTask[] = [];
  private readonly stats: SessionUpkeepStats = {
    idleEnded: 0,
    lastIdleSweepAt: null,
    decay: null,
    compressionQueued: 0,
    lastCompressionCheckAt: null,
  };
  private decayPasses = 0;

  constructor(
    private readonly executor: Executor,
    private readonly sessions: SessionService,
    private readonly config: Config,
    private readonly logger: Logger,
  ) {
    const namespaces = config.WORKER_NAMESPACES.length > 0 ? config.WORKER_NAMESPACES : null;
    if (config.SESSIONS_ENABLED && config.SESSION_IDLE_TIMEOUT_MS > 0) {
      this.loops.push(
        new PeriodicTask(
          'session-idle',
          DEFAULT_SESSION_SWEEP_INTERVAL_MS,
          async () => {
            this.stats.lastIdleSweepAt = new Date().toISOString();
            this.stats.idleEnded += await sessions.sweepIdle(namespaces);
          },
          logger,
        ),
      );
    }
    this.loops.push(
      new PeriodicTask(
        'decay',
        config.DECAY_INTERVAL_MS,
        () => this.decay(namespaces),
        logger,
        AGAIN_MS,
        Math.min(60_000, config.DECAY_INTERVAL_MS),
        sharedSchedule(executor, 'decay', namespaces),
      ),
    );
    this.loops.push(
      new PeriodicTask(
        'compression-threshold',
        config.COMPRESSION_AUTO_INTERVAL_MS,
        async () => {
          this.stats.compressionQueued += await this.checkCompression(namespaces);
        },
        logger,
        0,
        config.COMPRESSION_AUTO_INTERVAL_MS,
        sharedSchedule(executor, 'compression-threshold', namespaces),
      ),
    );
  }

  /** One decay pass now (the loop, tests and operators). */
  async decay(namespaces: readonly string[] | null, now = new Date()): Promise<{ again: boolean }> {
    const report = await runDecayPass(this.executor, { unretrievedDays: this.config.DECAY_UNRETRIEVED_DAYS, namespaces }, now);
    const { full, ...rest } = report;
    this.stats.decay = rest;
    if (rest.flaggedExpired + rest.flaggedUnretrieved + rest.cleared + rest.expiryParsed > 0) this.logger.info(rest, 'decay pass');
    this.decayPasses = full ? this.decayPasses + 1 : 0;
    if (this.decayPasses >= MAX_PASSES_IN_A_ROW) this.decayPasses = 0;
    return { again: this.decayPasses > 0 };
  }

  /** Queues compression in every namespace over the threshold; returns the sessions queued. */
  async checkCompression(namespaces: readonly string[] | null, now = new Date()): Promise<number> {
    this.stats.lastCompressionCheckAt = now.toISOString();
    const olderThan = new Date(now.getTime() - this.config.COMPRESSION_AUTO_AGE_DAYS * 86_400_000).toISOString();
    const over = await namespacesOverCompressionThreshold(this.executor, {
      namespaces,
      olderThan,
      minSessions: this.config.COMPRESSION_AUTO_MIN_SESSIONS,
      limit: COMPRESSION_MAX_NAMESPACES,
    });
    let queued = 0;
    for (const namespace of over) {
      const jobs = await queueSessionCompression(this.executor, {
        namespace,
        olderThan,
        // The namespace is over the threshold (counted above): take its oldest half, whatever is left.
        minSessions: 1,
        maxSessions: sessionsPerCompression(this.config.COMPRESSION_AUTO_MIN_SESSIONS),
        maxAttempts: this.config.WORKER_MAX_ATTEMPTS,
      });
      queued += jobs.length;
    }
    if (queued > 0) this.logger.info({ queued, namespaces: over.length }, 'compression started by its threshold');
    return queued;
  }

  /** Queues the compress jobs of a namespace's old episodic sessions (compressSessions); returns them. */
  compress(request: { namespace: string; olderThan: string; minSessions: number; maxSessions: number }): Promise<JobRecord[]> {
    return queueSessionCompression(this.executor, { ...request, maxAttempts: this.config.WORKER_MAX_ATTEMPTS });
  }

  snapshot(): SessionUpkeepStats {
    return { ...this.stats };
  }

  start(): void {
    if (!this.config.WORKER_ENABLED) return;
    for (const loop of this.loops) loop.start();
  }

  async stop(): Promise<void> {
    await Promise.all(this.loops.map((l) => l.stop()));
  }
}
