import type { Metrics } from './prometheus-metrics.js';

interface EmbedLike {
  embed(texts: readonly string[], purpose?: 'query' | 'passage'): Promise<Float32Array[]>;
}

interface RecallLike {
  recall(request: never): Promise<{ timings: Record<string, number>; tookMs: number }>;
}

/**
 * The embedder as seen by everyone who is handed this proxy, with each `embed` call timed.
 * A proxy rather than a patched method: one embedder may be shared by several service sets.
 */
export function observeEmbedder<T extends EmbedLike>(embedder: T, metrics: Metrics): T {
  const embed = async (texts: readonly string[], purpose?: 'query' | 'passage'): Promise<Float32Array[]> => {
    const started = performance.now();
    const vectors = await embedder.embed(texts, purpose);
    metrics.observeEmbedding(texts.length, (performance.now() - started) / 1000);
    return vectors;
  };
  return new Proxy(embedder, {
    get: (target, property, receiver) => (property === 'embed' ? embed : Reflect.get(target, property, receiver)),
  });
}

/** The recall service with its per-stage timings fed to the recall stage histogram. */
export function observeRecall<T extends RecallLike>(recall: T, metrics: Metrics): T {
  const observed = async (request: never) => {
    const outcome = await recall.recall(request);
    metrics.observeRecall(outcome.timings, outcome.tookMs);
    return outcome;
  };
  return new Proxy(recall, {
    get: (target, property, receiver) => (property === 'recall' ? observed : Reflect.get(target, property, receiver)),
  });
}
