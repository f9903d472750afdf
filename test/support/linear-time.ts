/** Time a linear-time test allows one stage on one 50,000-character input. */
export const LINEAR_TIME_BUDGET_MS = 1_000;

/** The faster of up to two runs, so one scheduling hiccup on a busy machine does not fail a linear-time test. */
export function timeMs(fn: () => unknown, budgetMs = LINEAR_TIME_BUDGET_MS): number {
  let best = Infinity;
  for (let attempt = 0; attempt < 2 && best > budgetMs; attempt++) {
    const t0 = performance.now();
    fn();
    best = Math.min(best, performance.now() - t0);
  }
  return best;
}
