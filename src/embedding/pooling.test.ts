import { describe, expect, it } from 'vitest';

import { meanPoolNormalized } from './pooling.js';

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
