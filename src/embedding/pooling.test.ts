import { describe, expect, it } from 'vitest';

import { clsPoolNormalized, meanPoolNormalized } from './pooling.js';

describe('meanPoolNormalized', () => {
  it('averages only unmasked tokens and returns unit vectors', () => {
    // batch 2, tokens 3, width 2; the second row's last token is padding.
    const hidden = new Float32Array([1, 0, 3, 0, 2, 4, /* row 2 */ 0, 2, 0, 4, 100, 100]);
    const mask = [1n, 1n, 1n, 1n, 1n, 0n];
    const out = meanPoolNormalized(hidden, mask, 2, 3, 2);
    // Row 1: mean (2, 4/3) → normalized; row 2: mean (0, 3) → (0, 1), padding ignored.
    const n = Math.hypot(2, 4 / 3);
    expect(out[0]).toBeCloseTo(2 / n, 6);
    expect(out[1]).toBeCloseTo(4 / 3 / n, 6);
    expect(Array.from(out.subarray(2))).toEqual([0, 1]);
  });

  it('leaves an all-padding row at zero instead of dividing by zero', () => {
    const out = meanPoolNormalized(new Float32Array([5, 5]), [0], 1, 1, 2);
    expect(Array.from(out)).toEqual([0, 0]);
  });
});

describe('clsPoolNormalized', () => {
  it("takes each row's first token, normalized, whatever the others and the padding hold", () => {
    // batch 2, tokens 2, width 2.
    const hidden = new Float32Array([3, 4, 100, 100, /* row 2 */ 0, -2, 7, 7]);
    const out = clsPoolNormalized(hidden, 2, 2, 2);
    expect(out[0]).toBeCloseTo(0.6, 6);
    expect(out[1]).toBeCloseTo(0.8, 6);
    expect(Array.from(out.subarray(2))).toEqual([0, -1]);
  });

  it('leaves a zero first token at zero instead of dividing by zero', () => {
    expect(Array.from(clsPoolNormalized(new Float32Array([0, 0, 1, 1]), 1, 2, 2))).toEqual([0, 0]);
  });
});
