import { AsyncLocalStorage } from 'node:async_hooks';

/** What the model server reports for one or more calls (Ollama's counters, durations in ms). */
export interface LlmUsage {
  calls: number;
  promptTokens: number;
  evalTokens: number;
  totalDurationMs: number;
  loadDurationMs: number;
  promptDurationMs: number;
  evalDurationMs: number;
}

export const emptyUsage = (): LlmUsage => ({
  calls: 0,
  promptTokens: 0,
  evalTokens: 0,
  totalDurationMs: 0,
  loadDurationMs: 0,
  promptDurationMs: 0,
  evalDurationMs: 0,
});

const meters = new AsyncLocalStorage<LlmUsage>();

/**
 * Runs `work` with a usage meter: every model call made inside it (however deep) adds what the
 * server reported. The meter is read after `work` settles, whether it succeeded or not.
 */
export async function meterUsage<T>(work: () => Promise<T>): Promise<{ usage: LlmUsage; outcome: PromiseSettledResult<T> }> {
  const usage = emptyUsage();
  const [outcome] = await Promise.allSettled([meters.run(usage, work)]);
  return { usage, outcome: outcome! };
}

/** Called by providers after each call; a no-op outside `meterUsage`. */
export function recordUsage(call: Omit<LlmUsage, 'calls'>): void {
  const usage = meters.getStore();
  if (!usage) return;
  usage.calls += 1;
  usage.promptTokens += call.promptTokens;
  usage.evalTokens += call.evalTokens;
  usage.totalDurationMs += call.totalDurationMs;
  usage.loadDurationMs += call.loadDurationMs;
  usage.promptDurationMs += call.promptDurationMs;
  usage.evalDurationMs += call.evalDurationMs;
}
