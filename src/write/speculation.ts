import { findLiveByDedupKeys, nearestMemories, type Executor, type NearestHit } from '../db/index.js';
import { dedupKey } from './dedup.js';
import type { PreparedMemory } from './prepare.js';

/** Items prepared before a slice of the batch is handed to the model. */
export const SPECULATION_SLICE = 32;

export interface SpeculationDeps {
  executor: Executor;
  embed(texts: string[]): Promise<Float32Array[]>;
  /** Neighbours per chunk, as the semantic dedup asks them. */
  neighbours: number;
}

/**
 * Work a batch starts before it needs it: while the event loop prepares the next slice of a
 * `rememberBatch`, the model thread embeds the slice prepared before it and Neo4j answers that
 * slice's dedup search. Prepare, embedding and search then overlap instead of running one after
 * another; the decisions are still made by the round (remember-service.ts) in batch order, from the
 * same vectors and neighbours, and confirmed in the one write transaction.
 *
 * Results are keyed by what they depend on — a vector by its chunk text, a search by namespace and
 * text — so an item the echo guard prepares again misses and is computed as before. Only the
 * first round may use it (a later round searches again because a target changed). A failure here
 * is never the batch's: a miss is recomputed on the normal path. A slice's exact duplicates are
 * read first and not embedded, so a retried batch costs no model time.
 */
export class Speculation {
  private readonly vectors = new Map<string, Promise<number[] | null>>();
  private readonly searches = new Map<string, Promise<NearestHit[] | null>>();

  constructor(private readonly deps: SpeculationDeps) {}

  /** Starts embedding and searching for these prepared memories; returns at once (results are registered now). */
  prime(prepared: readonly PreparedMemory[]): void {
    const { executor, embed, neighbours } = this.deps;
    const keys = [...new Set(prepared.map((p) => dedupKey(p.namespace, p.contentHash)))];
    const fresh = findLiveByDedupKeys(executor, keys).then((existing) =>
      prepared.filter((p) => !existing.has(dedupKey(p.namespace, p.contentHash))),
    );

    const texts = [...new Set(prepared.flatMap((p) => p.chunks.map((c) => c.text)))].filter((t) => !this.vectors.has(t));
    const embedded = fresh.then(async (items) => {
      const wanted = new Set(items.flatMap((p) => p.chunks.map((c) => c.text)));
      const todo = texts.filter((t) => wanted.has(t));
      const vectors = todo.length ? await embed(todo) : [];
      return new Map(todo.map((t, i) => [t, Array.from(vectors[i]!)]));
    });
    embedded.catch(() => undefined); // a miss, below
    for (const text of texts) this.vectors.set(text, settled(embedded.then((m) => m.get(text) ?? null)));

    const byNamespace = new Map<string, Set<string>>();
    for (const p of prepared)
      for (const c of p.chunks) {
        if (this.searches.has(searchKey(p.namespace, c.text))) continue;
        byNamespace.set(p.namespace, (byNamespace.get(p.namespace) ?? new Set()).add(c.text));
      }
    for (const [namespace, set] of byNamespace) {
      const list = [...set];
      const searched = embedded.then(async () => {
        const found = await Promise.all(list.map((t) => this.vector(t)));
        const ready = list.flatMap((t, i) => (found[i] ? [{ text: t, vector: found[i]! }] : []));
        const hits = ready.length
          ? await nearestMemories(
              executor,
              namespace,
              ready.map((r) => r.vector),
              neighbours,
            )
          : [];
        return new Map(ready.map((r, i) => [r.text, hits[i] ?? null]));
      });
      for (const text of list) this.searches.set(searchKey(namespace, text), settled(searched.then((m) => m.get(text) ?? null)));
    }
  }

  /** The vector of a chunk text, when primed and it succeeded; null otherwise. */
  vector(text: string): Promise<number[] | null> {
    return this.vectors.get(text) ?? Promise.resolve(null);
  }

  /** The stored neighbours of a chunk text in a namespace, when primed and it succeeded; null otherwise. */
  neighboursOf(namespace: string, text: string): Promise<NearestHit[] | null> {
    return this.searches.get(searchKey(namespace, text)) ?? Promise.resolve(null);
  }
}

/** A failed speculation is a miss, never an unhandled rejection. */
function settled<T>(promise: Promise<T | null>): Promise<T | null> {
  return promise.catch(() => null);
}

function searchKey(namespace: string, text: string): string {
  return `${namespace}\u0000${text}`;
}

/** Vectors of these chunk texts, in order: primed ones from the speculation, the rest embedded now (each distinct text once). */
export async function embedChunks(
  texts: readonly string[],
  embed: (texts: string[]) => Promise<Float32Array[]>,
  speculation?: Speculation,
): Promise<{ vectors: number[][]; primed: number }> {
  const known = await Promise.all(texts.map((t) => speculation?.vector(t) ?? null));
  const missing = [...new Set(texts.filter((_, i) => !known[i]))];
  const fresh = missing.length ? await embed(missing) : [];
  const byText = new Map(missing.map((t, i) => [t, Array.from(fresh[i]!)]));
  return {
    vectors: texts.map((t, i) => known[i] ?? byText.get(t)!),
    primed: known.filter(Boolean).length,
  };
}

/** The stored neighbours of each chunk of one namespace: primed ones from the speculation, the rest searched now. */
export async function chunkNeighbours(
  executor: Executor,
  namespace: string,
  chunks: ReadonlyArray<{ text: string; vector: number[] }>,
  k: number,
  speculation?: Speculation,
): Promise<NearestHit[][]> {
  const known = await Promise.all(chunks.map((c) => speculation?.neighboursOf(namespace, c.text) ?? null));
  const missing = chunks.flatMap((c, i) => (known[i] ? [] : [i]));
  if (missing.length) {
    const hits = await nearestMemories(
      executor,
      namespace,
      missing.map((i) => chunks[i]!.vector),
      k,
    );
    missing.forEach((i, j) => (known[i] = hits[j] ?? []));
  }
  return known as NearestHit[][];
}
