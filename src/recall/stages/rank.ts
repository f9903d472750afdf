import type { RankedCandidate, RecallCandidate } from '../types.js';
import { fuseScores, type FusionSettings } from './fuse.js';
import type { GraphSettings } from './graph-boost.js';
import { importanceFactor, type ImportanceSettings } from './importance.js';
import { resolutionFactor, type ResolutionSettings } from './resolution.js';
import type { LegsSettings } from './retrieve.js';
import { staleFactor } from './stale.js';
import { timeFactor, type TimeSettings, type TimeWindow } from './time.js';

export interface RankSettings {
  legs: LegsSettings;
  fusion: FusionSettings;
  graph: GraphSettings;
  resolution: ResolutionSettings;
  time: TimeSettings;
  importance: ImportanceSettings;
}

export interface RankContext {
  /** The past period the question names, if any (time.ts). */
  timeWindow?: TimeWindow | null;
}

/**
 * Ranking, pure: fusion (fuse.ts) → + the graph boost's increment (additive) → the score factors,
 * in this order: bonuses (resolution.ts, time.ts), then penalties (importance.ts, stale.ts), which
 * a pinned memory skips. Sorted by score descending (ties by memoryId). Every candidate comes back,
 * each with an explanation of every factor; context, filters, rerank and the budget come after,
 * in the orchestrator. Candidates must be unique by memoryId.
 */
export function rankCandidates(
  candidates: readonly RecallCandidate[],
  settings: RankSettings,
  context: RankContext = {},
): RankedCandidate[] {
  const ranked = fuseScores(candidates, settings).map(({ candidate, fused, weights, method, vector, keyword, hint, entity }) => {
    const graphBoost = settings.graph.enabled ? settings.graph.boostWeight * clamp01(candidate.graphBoost) : 0;
    const resolution = resolutionFactor(candidate, settings.resolution);
    const time = settings.time.enabled ? timeFactor(candidate.occurredAt, context.timeWindow ?? null, settings.time.boost) : 1;
    const importance = importanceFactor(candidate.importance, settings.importance);
    const stale = staleFactor(candidate.staleReason ?? null);
    const pinned = candidate.pinned === true;
    // A pin is the user saying "this matters": no penalty applies, bonuses still do.
    const penalties = pinned ? 1 : importance * stale;
    const score = (fused + graphBoost) * resolution * time * penalties;
    return {
      candidate,
      score,
      explanation: {
        method,
        weights,
        vector,
        keyword,
        hint,
        entity,
        fused,
        graphBoost,
        resolution,
        importance,
        time,
        stale,
        staleReason: candidate.staleReason ?? null,
        pinned,
        context: 0,
        rerank: null,
        similarity: usableSimilarity(candidate.similarity),
        final: score,
      },
    };
  });
  return ranked.sort(byScoreThenId);
}

export function byScoreThenId(a: RankedCandidate, b: RankedCandidate): number {
  if (b.score !== a.score) return b.score - a.score;
  return a.candidate.memoryId < b.candidate.memoryId ? -1 : a.candidate.memoryId > b.candidate.memoryId ? 1 : 0;
}

/** A similarity on the index scale, or null when there is none. */
export function usableSimilarity(similarity: number | null | undefined): number | null {
  return similarity !== null && similarity !== undefined && Number.isFinite(similarity) ? similarity : null;
}

function clamp01(value: number): number {
  return Number.isFinite(value) ? Math.min(1, Math.max(0, value)) : 0;
}
