import type { z } from 'zod/v3';
import { flag, fraction, num, section } from '../settings/fields.js';
import type { RankedCandidate } from '../types.js';
import type { RankedStage } from './stage.js';

export const rerankSettings = section({
  enabled: flag().default(true).describe('rerank stage: the head reordered by its similarity to the question (no model call)'),
  topN: num({ int: true, min: 1 }).default(20).describe('results reranked (the head of the ranking)'),
  scoreWeight: fraction().default(0.7).describe('weight of the ranked score in the reranked score'),
  similarityWeight: fraction().default(0.3).describe('weight of the query/memory similarity in the reranked score'),
});
export type RerankSettings = z.output<typeof rerankSettings>;

/**
 * The rerank stage, without a model call and without I/O: the first `topN` results reordered by
 * scoreWeight × score + similarityWeight × similarity, where similarity is the question/memory
 * cosine on the vector index's scale, (1 + cos) / 2, computed in Neo4j while hydrating. A result
 * without a similarity keeps its score. The rest follow untouched. Explains `rerank`.
 * Failure rule: keep what came in (it only reorders, invariant 3).
 */
export const rerankStage: RankedStage<RerankSettings> = {
  name: 'rerank',
  onFailure: 'keep-input',
  enabled: (settings, ranked, run) => settings.enabled && run.vector !== null && ranked.length >= 2,
  run: (ranked, run, settings) => rerankBySimilarity(ranked, (id) => run.memories.get(id)?.similarity, settings),
};

export function rerankBySimilarity(
  ranked: readonly RankedCandidate[],
  similarity: (memoryId: string) => number | null | undefined,
  settings: Pick<RerankSettings, 'topN' | 'scoreWeight' | 'similarityWeight'>,
): RankedCandidate[] {
  const head = ranked.slice(0, Math.max(0, settings.topN));
  const rescored = head
    .map((item, index) => {
      const s = similarity(item.candidate.memoryId);
      const score =
        s === null || s === undefined || !Number.isFinite(s)
          ? item.score
          : settings.scoreWeight * item.score + settings.similarityWeight * s;
      return { item, index, score };
    })
    .sort((a, b) => b.score - a.score || a.index - b.index)
    .map(({ item, score }) => ({ candidate: item.candidate, score, explanation: { ...item.explanation, rerank: score, final: score } }));
  return [...rescored, ...ranked.slice(head.length)];
}
