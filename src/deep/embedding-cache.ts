import { createHash } from 'node:crypto';
import type { TextEmbedder } from '../write/index.js';

/** Entries kept: a job's facts and their candidates' texts, with room for a few jobs in a row. */
export const DEFAULT_EMBEDDING_CACHE_ENTRIES = 512;

/**
 * Vectors by content hash (the same text always embeds the same): the deep path embeds a
 * fact to find its candidates, then writes it through the write path, which embeds its chunks.
 * With this cache in front of both, each fact text is embedded once. Least recently used out.
 */
export class ContentHashEmbeddingCache implements TextEmbedder {
  private readonly vectors = new Map<string, Float32Array>();
  hits = 0;
  misses = 0;

  constructor(
    private readonly embedder: TextEmbedder,
    private readonly maxEntries = DEFAULT_EMBEDDING_CACHE_ENTRIES,
  ) {}

  get modelId(): string {
    return this.embedder.modelId;
  }

  async embed(texts: string[]): Promise<Float32Array[]> {
    const keys = texts.map((t) => `${this.embedder.modelId}\u0000${createHash('sha256').update(t).digest('hex')}`);
    const missing = [...new Set(keys.filter((k) => !this.vectors.has(k)))];
    const missingTexts = missing.map((k) => texts[keys.indexOf(k)]!);
    this.misses += missing.length;
    this.hits += texts.length - missing.length;
    const fresh = missingTexts.length ? await this.embedder.embed(missingTexts) : [];
    const found = new Map(missing.map((k, i) => [k, fresh[i]!]));
    const result = keys.map((k) => {
      const vector = found.get(k) ?? this.vectors.get(k)!;
      this.vectors.delete(k); // re-inserted: most recently used last
      this.vectors.set(k, vector);
      return vector;
    });
    while (this.vectors.size > this.maxEntries) this.vectors.delete(this.vectors.keys().next().value!);
    return result;
  }
}
