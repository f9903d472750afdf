import { describe, expect, it } from 'vitest';

import { restoreEndToken } from './truncation.js';

describe('restoreEndToken', () => {
  it('ends a full (truncated) row with the end token and leaves padded rows alone', () => {
    // batch 3, tokens 4: truncated ([CLS] a b c), padded ([CLS] a [SEP] pad), full and untruncated.
    const ids = BigInt64Array.from([101n, 7n, 8n, 9n, 101n, 7n, 102n, 0n, 101n, 7n, 8n, 102n]);
    const mask = [1n, 1n, 1n, 1n, 1n, 1n, 1n, 0n, 1n, 1n, 1n, 1n];
    restoreEndToken(ids, mask, 3, 4, 102n);
    expect(Array.from(ids)).toEqual([101n, 7n, 8n, 102n, 101n, 7n, 102n, 0n, 101n, 7n, 8n, 102n]);
  });
});
