import type { RecallSettings } from './settings/index.js';
import { dampeningFactors, hubThreshold } from './dampening.js';
import { fuseScores } from './fusion.js';
import { queryTokens } from '../text/index.js';
import { recencyFactor } from './recency.js';
import { staleFactor } from './stale.js';
import { timeFactor, type TimeWindow } from './time-window.js';
import type { RankedCandidate, RecallCandidate } from './types.js';

export interface RankContext {
  /** The user's query text (gravity dampening compares its words with each result's). */
  query: string;
  /** Reference time for recency. */
  now: Date;
  /** Mention count above which an entity is a hub, e.g. a namespace-wide P90; from the candidates when omitted. */
  hubThreshold?: number;
  /** The past period the question names, if any (time-window.ts). */
  timeWindow?: TimeWindow | null;
}

/**
 * The pure ranking pipeline: fusion → + graph boost (additive) → gravity, hub and resolution
 * dampening → recency → importance → validity (pinned memories skip the penalties), sorted by score descending (ties by memoryId). Every
 * candidate comes back, each with an explanation of every factor; rerank, filters and the token
 * budget come after, in the orchestrator. Candidates must be unique by memoryId.
 */
export function rankCandidates(candidates: readonly RecallCandidate[], settings: RecallSettings, context: RankContext): RankedCandidate[] {
  const tokens = new Set(queryTokens(context.query));
  const threshold = context.hubThreshold ?? hubThreshold(candidates, settings.dampening.hub.percentile);

  const ranked = fuseScores(candidates, settings).map(({ candidate, fused, method, vector, keyword, hint, entity }) => {
    const graphBoost = settings.graph.enabled ? settings.graph.boostWeight * clamp01(candidate.graphBoost) : 0;
    const { gravity, hub, resolution } = dampeningFactors(
      { candidate, vector, keyword, hint },
      { queryTokens: tokens, hubThreshold: threshold },
      settings.dampening,
    );
    const recency = settings.recency.enabled ? recencyFactor(candidate, context.now, settings.recency) : 1;
    const importance = settings.importance.enabled ? importanceFactor(candidate.importance, settings.importance.weight) : 1;
    const validity = settings.validity.enabled
      ? validityFactor(candidate.validUntil ?? null, context.now, settings.validity.expiredPenalty)
      : 1;
    const time = settings.time.enabled ? timeFactor(candidate.occurredAt, context.timeWindow ?? null, settings.time.boost) : 1;
    const stale = staleFactor(candidate.staleReason ?? null);
    const pinned = candidate.pinned === true;
    // A pin is the user saying "this matters": no penalty applies, bonuses (resolution) still do.
    const penalties = pinned ? 1 : gravity * hub * recency * importance * validity * stale;
    const score = (fused + graphBoost) * resolution * time * penalties;
    return {
      candidate,
      score,
      explanation: {
        method,
        vector,
        keyword,
        hint,
        entity,
        fused,
        graphBoost,
        gravity,
        hub,
        resolution,
        recency,
        importance,
        validity,
        time,
        stale,
        staleReason: candidate.staleReason ?? null,
        pinned,
        context: 0,
        rerank: null,
        similarity: usableSimilarity(candidate.similarity),
        learned: null,
        final: score,
      },
    };
  });
  return ranked.sort(byScoreThenId);
}

/** `expiredPenalty` once `validUntil` is before `now`; 1 otherwise (no end, or unparsable). */
export function validityFactor(validUntil: string | null, now: Date, expiredPenalty: number): number {
  if (!validUntil) return 1;
  const end = Date.parse(validUntil);
  return Number.isFinite(end) && end < now.getTime() ? expiredPenalty : 1;
}

/** `1 − weight + weight × importance`: importance 1 keeps the score, 0 lowers it by `weight`. */
export function importanceFactor(importance: number, weight: number): number {
  if (!Number.isFinite(importance)) return 1;
  return 1 - weight + weight * clamp01(importance);
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
