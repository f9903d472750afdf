/**
 * Fits and measures the learned ranking (test/bench/learned-rank.ts) from the rankings that
 * `npm run bench:locomo -- <dirs> --features <file.jsonl>` wrote: per question, the head of the
 * default pipeline's ranking with each result's features and label (it holds an evidence turn).
 *
 * A logistic model (test/bench/logistic.ts) is fitted on some questions and re-ranks the
 * candidate lists of others; recall@5 / @10 and MRR of the first 20 (as bench:locomo scores
 * them) are compared for the default order and the learned order:
 * - leave one family out: fitted on the other datasets, scored on the held-out one;
 * - within the family: 5 folds of conversations (conversation i → fold i mod 5, as
 *   locomo-cv.ts), fitted on the dataset's other folds;
 * - folds over all families: fitted on the other folds of every dataset (how a model fitted on
 *   both families does on unseen conversations of a seen family).
 *
 * Usage: npm run learn:ranking -- <features.jsonl> [--json] [--lambda 1] [--model pointwise|conditional]
 *        [--only-features a,b,…] [--write test/bench/learned-rank-weights.ts --pipeline '<the settings the rankings came from>']
 *        (--write: the model fitted on every question)
 *        npm run learn:ranking -- <features.jsonl> --apply   (the shipped weights re-rank the file's
 *        questions: what a bench run with learnedRank on should score on the same stored data)
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { LEARNED_RANK_FEATURES } from './learned-rank.js';
import { LEARNED_RANK_MODEL } from './learned-rank-weights.js';
import { FOLDS } from './locomo-cv.js';
import { fitConditionalLogit, fitLogistic, logit, type LogisticFit } from './logistic.js';
import { scoreRanking } from './locomo-metrics.js';

interface Candidate {
  turns: string[];
  label: number;
  features: number[];
}

export interface Question {
  dataset: string;
  conversation: number;
  question: number;
  category: number;
  evidence: string[];
  candidates: Candidate[];
}

interface Figures {
  'recall@5': number;
  'recall@10': number;
  mrr: number;
  questions: number;
}

/** Results returned by the bench's recall (the figures score the first RETURNED of each order). */
const RETURNED = 20;

export function readFeatureFile(path: string): Question[] {
  const [header, ...lines] = readFileSync(path, 'utf8').split('\n').filter(Boolean);
  const names = (JSON.parse(header!) as { features: string[] }).features;
  if (names.join() !== LEARNED_RANK_FEATURES.join()) {
    throw new Error(`${path} names other features than test/bench/learned-rank.ts (${names.join()}): run bench:locomo --features again`);
  }
  return lines.map((line) => JSON.parse(line) as Question);
}

/** Mean recall@5, @10 and MRR of the first RETURNED candidates of each question, in the order `order` gives. */
export function figures(questions: readonly Question[], order: (q: Question) => Candidate[] = (q) => q.candidates): Figures {
  let r5 = 0;
  let r10 = 0;
  let mrr = 0;
  for (const q of questions) {
    const ranked = order(q)
      .slice(0, RETURNED)
      .map((c) => c.turns);
    const s = scoreRanking(ranked, q.evidence, new Map());
    r5 += s.hits[5]!;
    r10 += s.hits[10]!;
    mrr += s.reciprocalRank;
  }
  const n = Math.max(1, questions.length);
  return { 'recall@5': round(r5 / n), 'recall@10': round(r10 / n), mrr: round(mrr / n), questions: questions.length };
}

export type ModelKind = 'pointwise' | 'conditional';
let kind: ModelKind = 'pointwise';

/** Features the model may weigh (--only-features); the rest are held at 0 and get no weight. */
let used: ReadonlySet<number> = new Set(LEARNED_RANK_FEATURES.map((_, j) => j));
const masked = (features: readonly number[]) => features.map((x, j) => (used.has(j) ? x : 0));

export function fit(questions: readonly Question[], lambda: number): LogisticFit {
  if (kind === 'conditional') {
    return fitConditionalLogit(
      questions.map((q) => ({ rows: q.candidates.map((c) => masked(c.features)), labels: q.candidates.map((c) => c.label) })),
      { lambda },
    );
  }
  const rows = questions.flatMap((q) => q.candidates.map((c) => masked(c.features)));
  const labels = questions.flatMap((q) => q.candidates.map((c) => c.label));
  return fitLogistic(rows, labels, { lambda });
}

/** The candidates ordered by the model's logit, best first (ties keep the default order). */
export function learnedOrder(model: Pick<LogisticFit, 'intercept' | 'weights'>): (q: Question) => Candidate[] {
  return (q) =>
    q.candidates
      .map((c, i) => ({ c, i, z: logit(model, c.features) }))
      .sort((a, b) => b.z - a.z || a.i - b.i)
      .map(({ c }) => c);
}

/** Held-out learned order of each test split, pooled over splits: the figures of the learned order on every question once. */
function heldOut(splits: Array<{ train: Question[]; test: Question[] }>, lambda: number): Figures {
  const scored: Array<{ q: Question; order: Candidate[] }> = [];
  for (const { train, test } of splits) {
    if (test.length === 0 || train.length === 0) continue;
    const order = learnedOrder(fit(train, lambda));
    for (const q of test) scored.push({ q, order: order(q) });
  }
  const byQuestion = new Map(scored.map((s) => [s.q, s.order]));
  return figures(
    scored.map((s) => s.q),
    (q) => byQuestion.get(q)!,
  );
}

export interface Report {
  lambda: number;
  datasets: Record<
    string,
    { default: Figures; leaveOneFamilyOut: Figures | null; withinFamilyFolds: Figures; foldsOverAllFamilies: Figures; inSample: Figures }
  >;
  /** Fitted on every question: what --write stores. */
  model: { intercept: number; weights: Record<string, { mean: number; scale: number; weight: number }>; iterations: number };
  candidates: number;
  positives: number;
}

export function evaluate(questions: readonly Question[], lambda: number): Report {
  const datasets = [...new Set(questions.map((q) => q.dataset))];
  const all = fit(questions, lambda);
  const report: Report = {
    lambda,
    datasets: {},
    model: {
      intercept: round(all.intercept, 6),
      weights: Object.fromEntries(
        LEARNED_RANK_FEATURES.map((name, j) => {
          const w = all.weights[j]!;
          return [name, { mean: round(w.mean, 6), scale: round(w.scale, 6), weight: round(w.weight, 6) }];
        }),
      ),
      iterations: all.iterations,
    },
    candidates: questions.reduce((s, q) => s + q.candidates.length, 0),
    positives: questions.reduce((s, q) => s + q.candidates.filter((c) => c.label === 1).length, 0),
  };
  for (const dataset of datasets) {
    const own = questions.filter((q) => q.dataset === dataset);
    const others = questions.filter((q) => q.dataset !== dataset);
    const folds = [...Array(FOLDS).keys()];
    report.datasets[dataset] = {
      default: figures(own),
      leaveOneFamilyOut: others.length > 0 ? heldOut([{ train: others, test: own }], lambda) : null,
      withinFamilyFolds: heldOut(
        folds.map((f) => ({
          train: own.filter((q) => q.conversation % FOLDS !== f),
          test: own.filter((q) => q.conversation % FOLDS === f),
        })),
        lambda,
      ),
      foldsOverAllFamilies: heldOut(
        folds.map((f) => ({
          train: questions.filter((q) => q.conversation % FOLDS !== f),
          test: own.filter((q) => q.conversation % FOLDS === f),
        })),
        lambda,
      ),
      inSample: figures(own, learnedOrder(all)),
    };
  }
  return report;
}

/** Whether leave-one-family-out gains on every dataset (mean of recall@5 and @10, as locomo-cv.ts's objective). */
export function gainsOnEveryFamily(report: Report): boolean {
  const objective = (f: Figures) => (f['recall@5'] + f['recall@10']) / 2;
  const rows = Object.values(report.datasets);
  return rows.length > 1 && rows.every((d) => d.leaveOneFamilyOut !== null && objective(d.leaveOneFamilyOut) > objective(d.default));
}

function print(report: Report): void {
  const cell = (f: Figures | null) => (f ? `${f['recall@5'].toFixed(3)} / ${f['recall@10'].toFixed(3)} / ${f.mrr.toFixed(3)}` : '–');
  console.log(
    `learned ranking, λ ${report.lambda}: ${report.candidates} candidates (${report.positives} hold evidence); recall@5 / @10 / MRR of the first ${RETURNED}`,
  );
  const head = ['dataset', 'default order', 'leave one family out', 'within-family folds', 'folds, all families', 'in sample'];
  console.log(head.map((h, i) => (i === 0 ? h.padEnd(16) : h.padStart(24))).join(' '));
  for (const [name, d] of Object.entries(report.datasets)) {
    const cells = [d.default, d.leaveOneFamilyOut, d.withinFamilyFolds, d.foldsOverAllFamilies, d.inSample].map(cell);
    console.log([name.slice(0, 16).padEnd(16), ...cells.map((c) => c.padStart(24))].join(' '));
  }
  console.log(`leave-one-family-out gains on every family: ${gainsOnEveryFamily(report) ? 'yes' : 'no'}`);
  console.log(`\nmodel fitted on every question (${report.model.iterations} Newton steps), weight per standard deviation:`);
  for (const [name, w] of Object.entries(report.model.weights)) console.log(`  ${name.padEnd(12)} ${w.weight.toFixed(3).padStart(8)}`);
  console.log(`  ${'intercept'.padEnd(12)} ${report.model.intercept.toFixed(3).padStart(8)}`);
}

/** The weights file (test/bench/learned-rank-weights.ts): the model fitted on every question, and what it was fitted on. */
export function weightsFile(report: Report, command: string, date: string, pipeline: string): string {
  const datasets = Object.entries(report.datasets).map(([name, d]) => ({ name, questions: d.default.questions }));
  const heldOut = Object.fromEntries(
    Object.entries(report.datasets).map(([name, d]) => [
      name,
      {
        default: d.default,
        leaveOneFamilyOut: d.leaveOneFamilyOut,
        withinFamilyFolds: d.withinFamilyFolds,
        foldsOverAllFamilies: d.foldsOverAllFamilies,
      },
    ]),
  );
  const weights = LEARNED_RANK_FEATURES.map((name) => {
    const w = report.model.weights[name]!;
    return `    ${name}: { mean: ${w.mean}, scale: ${w.scale}, weight: ${w.weight} },`;
  }).join('\n');
  return `import type { LearnedRankModel } from './learned-rank.js';

/**
 * The learned ranking's weights (recall setting \`learnedRank\`; learned-rank.ts), written by
 * test/bench/learn-ranking.ts: a logistic model fitted on every question of the datasets below
 * (label: the result holds an evidence turn), each feature standardized as (x − mean) / scale;
 * a weight is the effect of one standard deviation on the logit. \`heldOut\`: recall@5 / @10 and
 * MRR of the default order and of the learned order on questions the model was not fitted on
 * (docs/recall-quality.md, "A ranking learned across families"). The stage is on by default only
 * where leave-one-family-out gains on every family.
 */
export const LEARNED_RANK_FITTED_ON = ${JSON.stringify({ datasets, questions: datasets.reduce((s, d) => s + d.questions, 0), candidates: report.candidates, lambda: report.lambda, pipeline, command, date, heldOut, leaveOneFamilyOutGainsOnEveryFamily: gainsOnEveryFamily(report) }, null, 2)} as const;

export const LEARNED_RANK_MODEL: LearnedRankModel = {
  intercept: ${report.model.intercept},
  weights: {
${weights}
  },
};
`;
}

function main(): void {
  const args = process.argv.slice(2);
  const option = (name: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
  const valued = ['--lambda', '--write', '--model', '--only-features', '--pipeline'];
  const [path] = args.filter((a, i) => !a.startsWith('--') && !valued.includes(args[i - 1]!));
  if (!path) throw new Error('name the features file: npm run learn:ranking -- <features.jsonl> (written by bench:locomo --features)');
  const lambda = Number(option('--lambda') ?? 1);
  kind = option('--model') === 'conditional' ? 'conditional' : 'pointwise';
  const only = option('--only-features')?.split(',');
  if (only) {
    const unknown = only.filter((f) => !(LEARNED_RANK_FEATURES as readonly string[]).includes(f));
    if (unknown.length > 0) throw new Error(`unknown features: ${unknown.join(', ')} (known: ${LEARNED_RANK_FEATURES.join(', ')})`);
    used = new Set(only.map((f) => (LEARNED_RANK_FEATURES as readonly string[]).indexOf(f)));
  }
  if (args.includes('--apply')) {
    const questions = readFeatureFile(path);
    const model = {
      intercept: LEARNED_RANK_MODEL.intercept,
      weights: LEARNED_RANK_FEATURES.map((name) => LEARNED_RANK_MODEL.weights[name]),
    };
    const rows = [...new Set(questions.map((q) => q.dataset))].map((dataset) => {
      const own = questions.filter((q) => q.dataset === dataset);
      return { dataset, default: figures(own), shipped: figures(own, learnedOrder(model)) };
    });
    if (args.includes('--json')) process.stdout.write(`${JSON.stringify(rows)}\n`);
    else
      for (const r of rows) console.log(`${r.dataset}: default ${JSON.stringify(r.default)}; shipped weights ${JSON.stringify(r.shipped)}`);
    return;
  }
  const report = evaluate(readFeatureFile(path), lambda);
  if (args.includes('--json')) process.stdout.write(`${JSON.stringify(report)}\n`);
  else print(report);
  const target = option('--write');
  if (target) {
    const command = `npm run bench:locomo -- <LoCoMo dev> <LongMemEval dev> --features <file>; npm run learn:ranking -- <file> --lambda ${lambda} --write ${target}`;
    const pipeline = option('--pipeline') ?? 'the default settings when bench:locomo --features ran';
    writeFileSync(target, weightsFile(report, command, new Date().toISOString().slice(0, 10), pipeline));
    process.stderr.write(`wrote ${target}\n`);
  }
}

const round = (n: number, digits = 3) => Math.round(n * 10 ** digits) / 10 ** digits;

main();
