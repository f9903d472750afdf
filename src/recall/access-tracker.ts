import { randomUUID } from 'node:crypto';
import { outsideConsistency } from '../consistency/index.js';
import type { Executor } from '../db/index.js';
import { touchAccessed, type AccessRow } from '../db/index.js';
import type { Logger } from '../logger.js';

export interface AccessTrackerSettings {
  /** How often pending counts are written. */
  flushMs: number;
  /** Distinct memories held between flushes; accesses beyond are dropped (and counted). */
  maxPending: number;
}

export interface AccessTrackerStats {
  pending: number;
  flushed: number;
  dropped: number;
  failedFlushes: number;
}

/**
 * Recall's access counts, kept out of its request path: recorded in memory, written in the
 * background in one batched transaction per interval and on close. Best-effort by design: a
 * crash loses at most one interval's counts, and a full buffer drops accesses rather than grow.
 */
export class AccessTracker {
  private pending = new Map<string, { count: number; at: string }>();
  private readonly stats = { flushed: 0, dropped: 0, failedFlushes: 0 };
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> | null = null;

  constructor(
    private readonly executor: Executor,
    private readonly settings: AccessTrackerSettings,
    private readonly logger: Logger,
  ) {}

  start(): void {
    if (this.timer) return;
    this.timer = outsideConsistency(() => setInterval(() => void this.flush(), this.settings.flushMs));
    this.timer.unref();
  }

  record(ids: readonly string[], at = new Date()): void {
    const iso = at.toISOString();
    for (const id of ids) {
      const entry = this.pending.get(id);
      if (entry) {
        entry.count += 1;
        entry.at = iso;
      } else if (this.pending.size < this.settings.maxPending) {
        this.pending.set(id, { count: 1, at: iso });
      } else {
        this.stats.dropped += 1;
      }
    }
  }

  /** Writes what is pending; one flush at a time. Failures are logged, and the batch is dropped. */
  flush(): Promise<void> {
    this.flushing ??= outsideConsistency(() => this.writePending()).finally(() => {
      this.flushing = null;
    });
    return this.flushing;
  }

  /** Stops the timer and writes what is left (shutdown). */
  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.flush();
    if (this.pending.size > 0) await this.flush();
  }

  snapshot(): AccessTrackerStats {
    return { pending: this.pending.size, ...this.stats };
  }

  private async writePending(): Promise<void> {
    if (this.pending.size === 0) return;
    const batch = this.pending;
    this.pending = new Map();
    const rows: AccessRow[] = [...batch].map(([id, { count, at }]) => ({ id, count, at }));
    try {
      await touchAccessed(this.executor, rows, randomUUID());
      this.stats.flushed += rows.length;
    } catch (error) {
      this.stats.failedFlushes += 1;
      this.logger.warn({ err: error, memories: rows.length }, 'could not record access of recalled memories; counts dropped');
    }
  }
}
