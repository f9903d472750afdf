export const TICK_BACKOFF_BASE_MS = 1000;
export const TICK_BACKOFF_CAP_MS = 30 * 1000;
export const TICK_BACKOFF_JITTER_MS = 500;

/**
 * Delay before the next tick: the poll interval while healthy; after
 * consecutive failures 1 s doubling to 30 s, plus up to 500 ms of jitter so that several workers
 * hitting the same outage do not retry in lockstep.
 */
export function tickDelayMs(consecutiveFailures: number, pollMs: number, random: () => number = Math.random): number {
  if (consecutiveFailures <= 0) return pollMs;
  const backoff = Math.min(TICK_BACKOFF_BASE_MS * 2 ** (consecutiveFailures - 1), TICK_BACKOFF_CAP_MS);
  return backoff + Math.floor(random() * TICK_BACKOFF_JITTER_MS);
}
