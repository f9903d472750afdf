/** Durations of the stages of one recall, in ms (the one timing mechanism of the orchestrator). */
export class StageTimer {
  readonly timings: Record<string, number> = {};
  private readonly started = performance.now();

  async run<T>(stage: string, work: () => Promise<T>): Promise<T> {
    const t0 = performance.now();
    try {
      return await work();
    } finally {
      this.timings[stage] = round(performance.now() - t0);
    }
  }

  runSync<T>(stage: string, work: () => T): T {
    const t0 = performance.now();
    try {
      return work();
    } finally {
      this.timings[stage] = round(performance.now() - t0);
    }
  }

  elapsed(): number {
    return round(performance.now() - this.started);
  }
}

function round(ms: number): number {
  return Math.round(ms * 100) / 100;
}
