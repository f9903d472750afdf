import { describe, expect, it } from 'vitest';
import { ContentHashEmbeddingCache } from './embedding-cache.js';

function countingEmbedder() {
  const calls: string[][] = [];
  return {
    calls,
    modelId: 'm',
    async embed(texts: string[]) {
      calls.push([...texts]);
      return texts.map((t) => Float32Array.from([t.length]));
    },
  };
}

describe('ContentHashEmbeddingCache', () => {
  it('embeds each distinct text once and returns vectors in input order', async () => {
    const inner = countingEmbedder();
    const cache = new ContentHashEmbeddingCache(inner);
    expect((await cache.embed(['aa', 'b', 'aa'])).map((v) => v[0])).toEqual([2, 1, 2]);
    expect((await cache.embed(['b', 'cccc'])).map((v) => v[0])).toEqual([1, 4]);
    expect(inner.calls).toEqual([['aa', 'b'], ['cccc']]);
    expect({ hits: cache.hits, misses: cache.misses }).toEqual({ hits: 2, misses: 3 });
  });

  it('keeps at most maxEntries, dropping the least recently used', async () => {
    const inner = countingEmbedder();
    const cache = new ContentHashEmbeddingCache(inner, 2);
    await cache.embed(['a', 'b']);
    await cache.embed(['a']); // a is now the most recent
    await cache.embed(['c']); // b goes
    await cache.embed(['a', 'b']);
    expect(inner.calls).toEqual([['a', 'b'], ['c'], ['b']]);
  });
});
