/**
 * L2-regularized logistic regression fitted by Newton's method (IRLS), for the learned ranking
 * (test/bench/learn-ranking.ts). Features are standardized first (mean 0, standard deviation 1
 * over the training rows; a constant feature keeps scale 1 and ends with weight 0), so the
 * penalty treats every feature alike and a weight reads as the effect of one standard deviation.
 * The intercept is not penalized. Small and dependency-free: a model of ~20 features over
 * ~50,000 rows converges in a handful of iterations.
 */
export interface LogisticFit {
  intercept: number;
  /** Per feature: the standardization and the weight on the standardized value. */
  weights: Array<{ mean: number; scale: number; weight: number }>;
  iterations: number;
  converged: boolean;
}

export interface FitOptions {
  /** L2 penalty on the standardized weights (not the intercept). */
  lambda?: number;
  maxIterations?: number;
  /** Stop when the largest Newton step is below this. */
  tolerance?: number;
}

export function fitLogistic(rows: readonly (readonly number[])[], labels: readonly number[], options: FitOptions = {}): LogisticFit {
  const { lambda = 1, maxIterations = 50, tolerance = 1e-8 } = options;
  const n = rows.length;
  if (n === 0 || labels.length !== n) throw new Error(`fitLogistic needs rows and as many labels (got ${n} rows, ${labels.length} labels)`);
  const d = rows[0]!.length;
  const mean = new Array<number>(d).fill(0);
  const scale = new Array<number>(d).fill(0);
  for (const row of rows) for (let j = 0; j < d; j++) mean[j]! += row[j]! / n;
  for (const row of rows) for (let j = 0; j < d; j++) scale[j]! += (row[j]! - mean[j]!) ** 2 / n;
  for (let j = 0; j < d; j++) scale[j] = Math.sqrt(scale[j]!) > 1e-12 ? Math.sqrt(scale[j]!) : 1;
  // Design matrix with the intercept as column 0.
  const x = rows.map((row) => [1, ...row.map((v, j) => (v - mean[j]!) / scale[j]!)]);
  const p = d + 1;
  const beta = new Array<number>(p).fill(0);
  let iterations = 0;
  let converged = false;
  while (iterations < maxIterations && !converged) {
    iterations++;
    const gradient = new Array<number>(p).fill(0);
    const hessian = Array.from({ length: p }, () => new Array<number>(p).fill(0));
    for (let i = 0; i < n; i++) {
      const xi = x[i]!;
      let z = 0;
      for (let j = 0; j < p; j++) z += beta[j]! * xi[j]!;
      const prob = 1 / (1 + Math.exp(-z));
      const residual = prob - labels[i]!;
      const w = Math.max(prob * (1 - prob), 1e-12);
      for (let j = 0; j < p; j++) {
        gradient[j]! += residual * xi[j]!;
        const wx = w * xi[j]!;
        const hj = hessian[j]!;
        for (let k = 0; k <= j; k++) hj[k]! += wx * xi[k]!;
      }
    }
    for (let j = 1; j < p; j++) {
      gradient[j]! += lambda * beta[j]!;
      hessian[j]![j]! += lambda;
    }
    for (let j = 0; j < p; j++) for (let k = j + 1; k < p; k++) hessian[j]![k] = hessian[k]![j]!;
    const step = solveSymmetric(hessian, gradient);
    let largest = 0;
    for (let j = 0; j < p; j++) {
      beta[j]! -= step[j]!;
      largest = Math.max(largest, Math.abs(step[j]!));
    }
    converged = largest < tolerance;
  }
  return {
    intercept: beta[0]!,
    weights: mean.map((m, j) => ({ mean: m, scale: scale[j]!, weight: beta[j + 1]! })),
    iterations,
    converged,
  };
}

/** The fitted model's logit for one raw feature vector. */
export function logit(fit: Pick<LogisticFit, 'intercept' | 'weights'>, row: readonly number[]): number {
  return fit.weights.reduce((z, { mean, scale, weight }, j) => z + (weight * (row[j]! - mean)) / scale, fit.intercept);
}

/** Solves A x = b for a symmetric positive definite A (Cholesky); A and b are not changed. */
export function solveSymmetric(a: readonly (readonly number[])[], b: readonly number[]): number[] {
  const n = b.length;
  const l = Array.from({ length: n }, () => new Array<number>(n).fill(0));
  for (let i = 0; i < n; i++) {
    for (let j = 0; j <= i; j++) {
      let sum = a[i]![j]!;
      for (let k = 0; k < j; k++) sum -= l[i]![k]! * l[j]![k]!;
      if (i === j) {
        if (!(sum > 0)) throw new Error('solveSymmetric: the matrix is not positive definite');
        l[i]![i] = Math.sqrt(sum);
      } else {
        l[i]![j] = sum / l[j]![j]!;
      }
    }
  }
  const y = new Array<number>(n).fill(0);
  for (let i = 0; i < n; i++) {
    let sum = b[i]!;
    for (let k = 0; k < i; k++) sum -= l[i]![k]! * y[k]!;
    y[i] = sum / l[i]![i]!;
  }
  const out = new Array<number>(n).fill(0);
  for (let i = n - 1; i >= 0; i--) {
    let sum = y[i]!;
    for (let k = i + 1; k < n; k++) sum -= l[k]![i]! * out[k]!;
    out[i] = sum / l[i]![i]!;
  }
  return out;
}

/**
 * Conditional logit (a softmax over each group: a question's candidates), fitted by Newton's
 * method with the same standardization and L2 penalty: it learns only how candidates of one
 * question rank against each other, never how likely a question's candidates are overall
 * (the intercept is 0: it cancels within a group). Each positive counts as one choice among its
 * group. Groups without a positive carry no information and are skipped.
 */
export function fitConditionalLogit(
  groups: ReadonlyArray<{ rows: readonly (readonly number[])[]; labels: readonly number[] }>,
  options: FitOptions = {},
): LogisticFit {
  const { lambda = 1, maxIterations = 50, tolerance = 1e-8 } = options;
  const all = groups.flatMap((g) => g.rows);
  if (all.length === 0) throw new Error('fitConditionalLogit needs rows');
  const d = all[0]!.length;
  const n = all.length;
  const mean = new Array<number>(d).fill(0);
  const scale = new Array<number>(d).fill(0);
  for (const row of all) for (let j = 0; j < d; j++) mean[j]! += row[j]! / n;
  for (const row of all) for (let j = 0; j < d; j++) scale[j]! += (row[j]! - mean[j]!) ** 2 / n;
  for (let j = 0; j < d; j++) scale[j] = Math.sqrt(scale[j]!) > 1e-12 ? Math.sqrt(scale[j]!) : 1;
  const standardized = groups
    .map((g) => ({
      x: g.rows.map((row) => row.map((v, j) => (v - mean[j]!) / scale[j]!)),
      positives: g.labels.reduce((s, l) => s + l, 0),
      labels: g.labels,
    }))
    .filter((g) => g.positives > 0 && g.x.length > 0);
  const beta = new Array<number>(d).fill(0);
  /** Negative log-likelihood of the choices plus the penalty. */
  const loss = (b: readonly number[]): number => {
    let total = (lambda / 2) * b.reduce((s, v) => s + v * v, 0);
    for (const { x, positives, labels } of standardized) {
      const z = x.map((row) => row.reduce((s, v, j) => s + v * b[j]!, 0));
      const top = Math.max(...z);
      const logSum = top + Math.log(z.reduce((s, v) => s + Math.exp(v - top), 0));
      total += positives * logSum - z.reduce((s, v, i) => s + (labels[i] ? v : 0), 0);
    }
    return total;
  };
  let iterations = 0;
  let converged = false;
  while (iterations < maxIterations && !converged) {
    iterations++;
    const gradient = beta.map((b) => lambda * b);
    const hessian = Array.from({ length: d }, (_, j) => Array.from({ length: d }, (_, k) => (j === k ? lambda : 0)));
    for (const { x, positives, labels } of standardized) {
      const z = x.map((row) => row.reduce((s, v, j) => s + v * beta[j]!, 0));
      const top = Math.max(...z);
      const e = z.map((v) => Math.exp(v - top));
      const total = e.reduce((a, b) => a + b, 0);
      const p = e.map((v) => v / total);
      const expected = new Array<number>(d).fill(0);
      x.forEach((row, i) => {
        for (let j = 0; j < d; j++) expected[j]! += p[i]! * row[j]!;
      });
      x.forEach((row, i) => {
        for (let j = 0; j < d; j++) {
          if (labels[i]) gradient[j]! -= row[j]!;
          const cj = row[j]! - expected[j]!;
          const hj = hessian[j]!;
          for (let k = 0; k <= j; k++) hj[k]! += positives * p[i]! * cj * (row[k]! - expected[k]!);
        }
      });
      for (let j = 0; j < d; j++) gradient[j]! += positives * expected[j]!;
    }
    for (let j = 0; j < d; j++) for (let k = j + 1; k < d; k++) hessian[j]![k] = hessian[k]![j]!;
    const step = solveSymmetric(hessian, gradient);
    // Damped: halve the step until the penalized loss does not grow (a full Newton step can overshoot a softmax).
    const before = loss(beta);
    let t = 1;
    let next = beta.map((b, j) => b - step[j]!);
    while (loss(next) > before + 1e-12 && t > 1e-6) {
      t /= 2;
      next = beta.map((b, j) => b - t * step[j]!);
    }
    let largest = 0;
    for (let j = 0; j < d; j++) {
      largest = Math.max(largest, Math.abs(next[j]! - beta[j]!));
      beta[j] = next[j]!;
    }
    converged = largest < tolerance;
  }
  return { intercept: 0, weights: mean.map((m, j) => ({ mean: m, scale: scale[j]!, weight: beta[j]! })), iterations, converged };
}
