import type { RecallSettings } from './config.js';
import { byScoreThenId } from './rank.js';
import type { RankedCandidate, RecallCandidate } from './types.js';

/**
 * Context stage (seed 003's timeline, applied inside recall): each neighbour in the same session
 * of one of the top `anchors` results gains `weight × anchor score` (the best anchor counts). A
 * neighbour no leg found joins with that score alone. Additive only: it never removes a result.
 */
export function applyContextBoost(
  ranked: readonly RankedCandidate[],
  neighbours: ReadonlyArray<{ anchorId: string; memoryId: string }>,
  newcomers: ReadonlyMap<string, RecallCandidate>,
  settings: RecallSettings['context'],
): RankedCandidate[] {
  const anchorScore = new Map(ranked.slice(0, settings.anchors).map((r) => [r.candidate.memoryId, r.score]));
  const boost = new Map<string, number>();
  for (const { anchorId, memoryId } of neighbours) {
    const score = anchorScore.get(anchorId);
    if (score === undefined || memoryId === anchorId) continue;
    boost.set(memoryId, Math.max(boost.get(memoryId) ?? 0, settings.weight * score));
  }
  const present = new Set(ranked.map((r) => r.candidate.memoryId));
  const boosted = ranked.map((r) => {
    const add = boost.get(r.candidate.memoryId) ?? 0;
    return add === 0 ? r : { ...r, score: r.score + add, explanation: { ...r.explanation, context: add, final: r.score + add } };
  });
  const joined: RankedCandidate[] = [...boost]
    .filter(([id]) => !present.has(id) && newcomers.has(id))
    .map(([id, add]) => ({
      candidate: newcomers.get(id)!,
      score: add,
      explanation: {
        method: ranked[0]?.explanation.method ?? 'weighted',
        vector: null,
        keyword: null,
        hint: null,
        fused: 0,
        graphBoost: 0,
        gravity: 1,
        hub: 1,
        resolution: 1,
        recency: 1,
        importance: 1,
        validity: 1,
        time: 1,
        pinned: newcomers.get(id)!.pinned === true,
        context: add,
        rerank: null,
        final: add,
      },
    }));
  return [...boosted, ...joined].sort(byScoreThenId);
}

/** Ids the context stage needs loaded: neighbours of anchors that no leg returned. */
export function contextNewcomerIds(ranked: readonly RankedCandidate[], neighbours: ReadonlyArray<{ memoryId: string }>): string[] {
  const present = new Set(ranked.map((r) => r.candidate.memoryId));
  return [...new Set(neighbours.map((n) => n.memoryId).filter((id) => !present.has(id)))];
}
