/**
 * A per-namespace budget of model calls over a sliding window (LLM_BUDGET_CALLS per
 * minute, BUDGET_WINDOW_MS): once a namespace's jobs have made that many calls in the window, its
 * jobs are not leased (they wait, pending) until enough of those calls have left the window. A job
 * already running finishes: a namespace may go over by the calls of its last job. Kept by each
 * worker for the calls it made (one budget per worker process).
 */
/** The window LLM_BUDGET_CALLS is counted over: a minute (a rate people can reason about; no setting). */
export const BUDGET_WINDOW_MS = 60_000;

export class NamespaceBudget {
  private readonly spent = new Map<string, Array<{ at: number; calls: number }>>();

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Off when the limit is 0. */
  get enabled(): boolean {
    return this.limit > 0;
  }

  /** Counts a job attempt's model calls against its namespace. */
  record(namespace: string, calls: number): void {
    if (!this.enabled || calls <= 0) return;
    const list = this.spent.get(namespace) ?? [];
    list.push({ at: this.now(), calls });
    this.spent.set(namespace, list);
  }

  /** The namespaces whose calls in the window reached the limit: their jobs wait. */
  exhausted(): string[] {
    if (!this.enabled) return [];
    const since = this.now() - this.windowMs;
    const over: string[] = [];
    for (const [namespace, list] of this.spent) {
      const kept = list.filter((entry) => entry.at > since);
      if (kept.length === 0) this.spent.delete(namespace);
      else this.spent.set(namespace, kept);
      if (kept.reduce((sum, entry) => sum + entry.calls, 0) >= this.limit) over.push(namespace);
    }
    return over;
  }
}
