import type { Executor } from '../db/index.js';
import { claimScheduledRun } from '../db/index.js';
import type { Logger } from '../logger.js';

/** What one run says about the next: `again` asks for a short pause, `delayMs` for another one. */
export type RunOutcome = { again?: boolean; delayMs?: number } | void;

/**
 * A schedule kept outside the process (db/queries/upkeep-state.ts claimScheduledRun): asked before
 * each interval's run, it answers 0 when the task is due (and records the run) or the milliseconds
 * until it is, so the task runs once per interval in every replica together and after a restart.
 */
export type ScheduleClaim = (intervalMs: number) => Promise<number>;

/** A shared schedule's first question comes at most this long after start (an overdue task runs soon). */
export const SHARED_FIRST_CHECK_MS = 60 * 1000;

/**
 * A setTimeout chain (as the worker's): one run at a time, the next scheduled when it ends, so a
 * slow run is never overlapped. A failing run is logged and retried at the next interval.
 */
export class PeriodicTask {
  private timer: NodeJS.Timeout | undefined;
  private running = false;
  private inFlight: Promise<void> | null = null;

  constructor(
    private readonly name: string,
    private readonly intervalMs: number,
    private readonly run: () => Promise<RunOutcome>,
    private readonly logger: Logger,
    private readonly againMs = 0,
    private firstDelayMs = intervalMs,
    private readonly shared: ScheduleClaim | null = null,
  ) {
    if (shared) this.firstDelayMs = Math.min(firstDelayMs, SHARED_FIRST_CHECK_MS);
  }

  get active(): boolean {
    return this.running;
  }

  start(firstDelayMs = this.firstDelayMs): void {
    if (this.running || this.intervalMs <= 0) return;
    this.running = true;
    this.schedule(firstDelayMs);
  }

  /** Runs now if idle (a new document was queued); no effect when stopped. */
  wake(): void {
    if (!this.running || this.inFlight) return;
    clearTimeout(this.timer);
    this.schedule(0);
  }

  async stop(): Promise<void> {
    this.running = false;
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.inFlight;
  }

  private schedule(delayMs: number, follow = false): void {
    if (!this.running) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.inFlight = this.tick(follow).finally(() => {
        this.inFlight = null;
      });
    }, delayMs);
    this.timer.unref();
  }

  /** `follow`: a run the previous one asked for (`again`), not the interval's: the shared schedule is not asked. */
  private async tick(follow: boolean): Promise<void> {
    let delay = this.intervalMs;
    let again = false;
    try {
      if (this.shared && !follow) {
        const wait = await this.shared(this.intervalMs);
        if (wait > 0) return this.schedule(Math.min(wait, this.intervalMs));
      }
      const outcome = await this.run();
      if (outcome?.again) {
        delay = this.againMs;
        again = true;
      } else if (outcome?.delayMs !== undefined) delay = outcome.delayMs;
    } catch (error) {
      this.logger.warn({ err: error, task: this.name }, 'upkeep task failed; retrying at the next interval');
    }
    this.schedule(delay, again);
  }
}

/** The shared schedule of `task` over these namespaces (null: all), in the database. */
export function sharedSchedule(executor: Executor, task: string, namespaces: readonly string[] | null): ScheduleClaim {
  return (intervalMs) => claimScheduledRun(executor, { task, namespaces, intervalMs, now: Date.now() });
}
