import { DEFAULT_RECALL_SETTINGS } from './settings/index.js';
import type { RankedCandidate } from './types.js';

export interface RerankInput {
  memoryId: string;
  content: string;
  /** The result's score before reranking. */
  score: number;
}

export interface RerankScore {
  memoryId: string;
  score: number;
}

/**
 * Scores candidates for a query; a higher score ranks first. `signal` aborts when the caller
 * stops waiting (timeout), so a provider doing I/O can cancel it.
 */
export type RerankProvider = (query: string, candidates: readonly RerankInput[], signal: AbortSignal) => Promise<RerankScore[]>;

export interface RerankOptions {
  topN: number;
  timeoutMs: number;
}

export type RerankOutcome =
  | { items: RankedCandidate[]; rerankApplied: true }
  | { items: RankedCandidate[]; rerankApplied: false; reason: 'timeout' | 'error' | 'empty'; error?: unknown };

const TIMED_OUT = Symbol('timed out');

/**
 * Sends the first `topN` results to `provider` and reorders them by its scores; the rest follow
 * untouched. Never removes a result (invariant 3): head results the provider did not score keep
 * their place after the scored ones, and on timeout or failure the input order comes back
 * unchanged with the reason. Rescored results carry the provider's score as `score`,
 * `explanation.rerank` and `explanation.final`.
 */
export async function rerankWithTimeout(
  query: string,
  ranked: readonly RankedCandidate[],
  provider: RerankProvider,
  options: RerankOptions,
): Promise<RerankOutcome> {
  const unchanged = (reason: 'timeout' | 'error' | 'empty', error?: unknown): RerankOutcome =>
    error === undefined
      ? { items: [...ranked], rerankApplied: false, reason }
      : { items: [...ranked], rerankApplied: false, reason, error };
  const head = ranked.slice(0, Math.max(0, options.topN));
  if (head.length === 0) return unchanged('empty');

  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<typeof TIMED_OUT>((resolve) => {
    timer = setTimeout(() => resolve(TIMED_OUT), options.timeoutMs);
    timer.unref();
  });
  try {
    const inputs = head.map((r) => ({ memoryId: r.candidate.memoryId, content: r.candidate.content, score: r.score }));
    const result = await Promise.race([provider(query, inputs, controller.signal), timeout]);
    if (result === TIMED_OUT) {
      controller.abort();
      return unchanged('timeout');
    }
    const reordered = applyScores(head, result);
    if (!reordered) return unchanged('error', new Error('reranker returned no usable score for any candidate'));
    return { items: [...reordered, ...ranked.slice(head.length)], rerankApplied: true };
  } catch (error) {
    return unchanged('error', error);
  } finally {
    clearTimeout(timer);
  }
}

function applyScores(head: readonly RankedCandidate[], scores: readonly RerankScore[]): RankedCandidate[] | null {
  const byId = new Map<string, number>();
  for (const s of Array.isArray(scores) ? scores : []) {
    if (s && typeof s.memoryId === 'string' && Number.isFinite(s.score) && !byId.has(s.memoryId)) byId.set(s.memoryId, s.score);
  }
  const scored: Array<{ item: RankedCandidate; index: number; score: number }> = [];
  const unscored: RankedCandidate[] = [];
  head.forEach((item, index) => {
    const score = byId.get(item.candidate.memoryId);
    if (score === undefined) unscored.push(item);
    else scored.push({ item, index, score });
  });
  if (scored.length === 0) return null;
  scored.sort((a, b) => b.score - a.score || a.index - b.index);
  const rescored = scored.map(({ item, score }) => ({
    candidate: item.candidate,
    score,
    explanation: { ...item.explanation, rerank: score, final: score },
  }));
  return [...rescored, ...unscored];
}

export interface EmbeddingRerankWeights {
  scoreWeight: number;
  similarityWeight: number;
}

const DEFAULT_WEIGHTS: EmbeddingRerankWeights = {
  scoreWeight: DEFAULT_RECALL_SETTINGS.rerank.scoreWeight,
  similarityWeight: DEFAULT_RECALL_SETTINGS.rerank.similarityWeight,
};

/**
 * A reranker without a model call: scoreWeight × score + similarityWeight × similarity,
 * where similarity is the query/memory cosine on the vector index's scale, (1 + cos) / 2.
 * Candidates without a usable vector keep their score.
 */
export function createEmbeddingReranker(
  queryVector: ArrayLike<number>,
  getVector: (memoryId: string) => ArrayLike<number> | undefined,
  weights: EmbeddingRerankWeights = DEFAULT_WEIGHTS,
): RerankProvider {
  return createSimilarityReranker((id) => {
    const vector = getVector(id);
    const cos = vector ? cosineSimilarity(queryVector, vector) : null;
    return cos === null ? null : (1 + cos) / 2;
  }, weights);
}

/**
 * The same reranker over similarities already at hand (recall computes them in Neo4j while it
 * loads the candidates, so reranking needs no I/O and cannot fail on the database).
 */
export function createSimilarityReranker(
  getSimilarity: (memoryId: string) => number | null | undefined,
  weights: EmbeddingRerankWeights = DEFAULT_WEIGHTS,
): RerankProvider {
  return async (_query, candidates) =>
    candidates
      .map((c) => {
        const similarity = getSimilarity(c.memoryId);
        const score =
          similarity === null || similarity === undefined || !Number.isFinite(similarity)
            ? c.score
            : weights.scoreWeight * c.score + weights.similarityWeight * similarity;
        return { memoryId: c.memoryId, score };
      })
      .sort((a, b) => b.score - a.score);
}

/** Cosine similarity in [-1, 1]; null when the lengths differ or a vector is all zeros. */
export function cosineSimilarity(a: ArrayLike<number>, b: ArrayLike<number>): number | null {
  if (a.length !== b.length || a.length === 0) return null;
  let dot = 0;
  let normA = 0;
  let normB = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i] as number;
    const y = b[i] as number;
    dot += x * y;
    normA += x * x;
    normB += y * y;
  }
  if (normA === 0 || normB === 0) return null;
  return Math.max(-1, Math.min(1, dot / Math.sqrt(normA * normB)));
}
