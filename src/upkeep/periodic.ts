import type { Logger } from '../logger.js';

/** What one run says about the next: `again` asks for a short pause, `delayMs` for another one. */
export type RunOutcome = { again?: boolean; delayMs?: number } | void;

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
    private readonly firstDelayMs = intervalMs,
  ) {}

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

  private schedule(delayMs: number): void {
    if (!this.running) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.inFlight = this.tick().finally(() => {
        this.inFlight = null;
      });
    }, delayMs);
    this.timer.unref();
  }

  private async tick(): Promise<void> {
    let delay = this.intervalMs;
    try {
      const outcome = await this.run();
      if (outcome?.again) delay = this.againMs;
      else if (outcome?.delayMs !== undefined) delay = outcome.delayMs;
    } catch (error) {
      this.logger.warn({ err: error, task: this.name }, 'upkeep task failed; retrying at the next interval');
    }
    this.schedule(delay);
  }
}
