import { LRUCache } from 'lru-cache';

/**
 * Recent questions' vectors kept by embed(…, 'query'): an agent asks again (a retried call, the
 * same prompt recalled by a hook and by the model), and embedding is recall's longest stage.
 */
export const QUERY_VECTOR_CACHE_ENTRIES = 256;

/** Recall's questions: the ones asked recently from the cache (a copy each: a caller may keep or change it), the rest embedded. */
export class QueryVectorCache {
  private readonly vectors = new LRUCache<string, Float32Array>({ max: QUERY_VECTOR_CACHE_ENTRIES });

  async embed(texts: readonly string[], run: (missing: string[]) => Promise<Float32Array[]>): Promise<Float32Array[]> {
    const missing = [...new Set(texts.filter((text) => !this.vectors.has(text)))];
    const fresh = missing.length > 0 ? await run(missing) : [];
    missing.forEach((text, i) => this.vectors.set(text, fresh[i]!));
    return texts.map((text) => Float32Array.from(this.vectors.get(text) ?? fresh[missing.indexOf(text)]!));
  }
}
