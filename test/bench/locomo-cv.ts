/**
 * Cross-validation over per-question results (no re-run needed): a configuration is chosen on
 * training questions and scored on held-out ones, so a figure says how the choice generalizes.
 *
 * - within: folds of conversations inside each dataset (conversation i → fold i mod FOLDS); for
 *   each fold the configuration with the best macro objective over every dataset's other folds
 *   is chosen and scored on that fold.
 * - leave one dataset out: chosen on the other datasets, scored on the held-out one.
 */
export const FOLDS = 5;

export interface QuestionResult {
  dataset: string;
  /** Index of the conversation within its dataset. */
  conversation: number;
  category: number;
  /** Turn-level recall@k by k (test/bench/locomo-metrics.ts). */
  hits: Record<number, number>;
  /** 1 / rank of the first evidence item; 0 when none is returned. */
  reciprocalRank?: number;
  /** Session-level recall@k by k. */
  sessionHits?: Record<number, number>;
}

export type Results = Record<string, QuestionResult[]>;

export interface HeldOut {
  'recall@5': number;
  'recall@10': number;
  questions: number;
  /** Configuration chosen for each fold (within) or for the dataset (leave-one-out). */
  chosen: string[];
}

/** What a choice maximizes: mean of recall@5 and recall@10. */
export function objective(rows: readonly QuestionResult[]): number {
  if (rows.length === 0) return 0;
  return rows.reduce((s, r) => s + ((r.hits[5] ?? 0) + (r.hits[10] ?? 0)) / 2, 0) / rows.length;
}

function macro(rows: readonly QuestionResult[]): number {
  const datasets = [...new Set(rows.map((r) => r.dataset))];
  return datasets.reduce((s, d) => s + objective(rows.filter((r) => r.dataset === d)), 0) / Math.max(1, datasets.length);
}

/** The candidate with the best macro objective over the rows `keep` selects; ties go to the first listed. */
export function choose(results: Results, candidates: readonly string[], keep: (r: QuestionResult) => boolean): string {
  let best = candidates[0]!;
  let bestScore = -Infinity;
  for (const name of candidates) {
    const score = macro((results[name] ?? []).filter(keep));
    if (score > bestScore + 1e-12) {
      best = name;
      bestScore = score;
    }
  }
  return best;
}

const foldOf = (r: QuestionResult) => r.conversation % FOLDS;

function score(rows: readonly QuestionResult[], chosen: string[]): HeldOut {
  const at = (k: number) => round(rows.reduce((s, r) => s + (r.hits[k] ?? 0), 0) / Math.max(1, rows.length));
  return { 'recall@5': at(5), 'recall@10': at(10), questions: rows.length, chosen };
}

/** Held-out figures per dataset for folds within each dataset (choice on all datasets' training folds). */
export function crossValidateWithin(results: Results, candidates: readonly string[]): Record<string, HeldOut> {
  const datasets = [
    ...new Set(
      Object.values(results)
        .flat()
        .map((r) => r.dataset),
    ),
  ];
  const heldOut = new Map<string, { rows: QuestionResult[]; chosen: string[] }>(datasets.map((d) => [d, { rows: [], chosen: [] }]));
  for (let fold = 0; fold < FOLDS; fold++) {
    const chosen = choose(results, candidates, (r) => foldOf(r) !== fold);
    for (const dataset of datasets) {
      const rows = (results[chosen] ?? []).filter((r) => r.dataset === dataset && foldOf(r) === fold);
      if (rows.length === 0) continue;
      heldOut.get(dataset)!.rows.push(...rows);
      heldOut.get(dataset)!.chosen.push(chosen);
    }
  }
  return Object.fromEntries([...heldOut].map(([d, { rows, chosen }]) => [d, score(rows, chosen)]));
}

/** Held-out figures per dataset, each scored with the configuration chosen on the other datasets. */
export function leaveOneDatasetOut(results: Results, candidates: readonly string[]): Record<string, HeldOut> {
  const datasets = [
    ...new Set(
      Object.values(results)
        .flat()
        .map((r) => r.dataset),
    ),
  ];
  if (datasets.length < 2) return {};
  return Object.fromEntries(
    datasets.map((dataset) => {
      const chosen = choose(results, candidates, (r) => r.dataset !== dataset);
      return [
        dataset,
        score(
          (results[chosen] ?? []).filter((r) => r.dataset === dataset),
          [chosen],
        ),
      ];
    }),
  );
}

const round = (n: number) => Math.round(n * 1000) / 1000;
