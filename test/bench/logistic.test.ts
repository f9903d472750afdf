import { describe, expect, it } from 'vitest';
import { fitConditionalLogit, fitLogistic, logit, solveSymmetric } from './logistic.js';

/** A deterministic pseudo-random stream (mulberry32), so the test data is the same on every run. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Rows of two features drawn uniformly in [0, 10) and [-1, 1), labels drawn from a known logistic model. */
function sample(n: number, truth: { intercept: number; w: [number, number] }) {
  const next = random(7);
  const rows: number[][] = [];
  const labels: number[] = [];
  for (let i = 0; i < n; i++) {
    const row = [next() * 10, next() * 2 - 1];
    const z = truth.intercept + truth.w[0] * row[0]! + truth.w[1] * row[1]!;
    rows.push(row);
    labels.push(next() < 1 / (1 + Math.exp(-z)) ? 1 : 0);
  }
  return { rows, labels };
}

describe('fitLogistic', () => {
  it('recovers the weights of a known model', () => {
    const { rows, labels } = sample(20_000, { intercept: -2, w: [0.4, -1.5] });
    const fit = fitLogistic(rows, labels, { lambda: 0 });
    expect(fit.converged).toBe(true);
    // Back on the raw scale: weight / scale per feature, intercept − Σ weight × mean / scale.
    const raw = fit.weights.map((w) => w.weight / w.scale);
    const intercept = fit.intercept - fit.weights.reduce((s, w) => s + (w.weight * w.mean) / w.scale, 0);
    expect(raw[0]).toBeCloseTo(0.4, 1);
    expect(raw[1]).toBeCloseTo(-1.5, 1);
    expect(intercept).toBeCloseTo(-2, 0);
    expect(logit(fit, [5, 0])).toBeCloseTo(intercept + raw[0]! * 5, 6);
  });

  it('shrinks the weights as the penalty grows, and gives a constant feature no weight', () => {
    const { rows, labels } = sample(2_000, { intercept: 0, w: [0.5, 1] });
    const withConstant = rows.map((r) => [...r, 3]);
    const loose = fitLogistic(withConstant, labels, { lambda: 0.01 });
    const tight = fitLogistic(withConstant, labels, { lambda: 5_000 });
    const size = (f: typeof loose) => Math.hypot(...f.weights.map((w) => w.weight));
    expect(size(tight)).toBeLessThan(size(loose) / 2);
    expect(loose.weights[2]!.mean).toBeCloseTo(3, 9);
    expect(loose.weights[2]!.scale).toBe(1);
    expect(Math.abs(loose.weights[2]!.weight)).toBeLessThan(1e-12);
  });

  it('refuses rows without as many labels', () => {
    expect(() => fitLogistic([[1]], [])).toThrow(/labels/);
  });
});

describe('fitConditionalLogit', () => {
  it('recovers the weights of a known choice model, one choice per group of ten', () => {
    const next = random(11);
    const groups = Array.from({ length: 2_000 }, () => {
      const rows = Array.from({ length: 10 }, () => [next(), next()]);
      const e = rows.map((r) => Math.exp(3 * r[0]! - 2 * r[1]!));
      let u = next() * e.reduce((a, b) => a + b, 0);
      let pick = 0;
      while (pick < 9 && u > e[pick]!) u -= e[pick++]!;
      return { rows, labels: rows.map((_, i) => (i === pick ? 1 : 0)) };
    });
    const fit = fitConditionalLogit(groups, { lambda: 0.001 });
    expect(fit.converged).toBe(true);
    expect(fit.intercept).toBe(0);
    const raw = fit.weights.map((w) => w.weight / w.scale);
    expect(raw[0]).toBeCloseTo(3, 0);
    expect(raw[1]).toBeCloseTo(-2, 0);
  });
});

describe('solveSymmetric', () => {
  it('solves a positive definite system and refuses one that is not', () => {
    const x = solveSymmetric(
      [
        [4, 2, 0],
        [2, 5, 1],
        [0, 1, 3],
      ],
      [2, 3, 4],
    );
    // A x = b checked back.
    expect(4 * x[0]! + 2 * x[1]!).toBeCloseTo(2, 10);
    expect(2 * x[0]! + 5 * x[1]! + x[2]!).toBeCloseTo(3, 10);
    expect(x[1]! + 3 * x[2]!).toBeCloseTo(4, 10);
    expect(() =>
      solveSymmetric(
        [
          [1, 2],
          [2, 1],
        ],
        [1, 1],
      ),
    ).toThrow(/positive definite/);
  });
});
