import type { RankedCandidate, RecallCandidate, RecallMemory, ScoreExplanation } from '../../src/recall/types.js';

/**
 * The one builder of recall's inputs for unit tests: a plain semantic memory that no leg scored
 * and nothing boosted, overridden per test. A file whose tests share other defaults (a content the
 * query matches, another record time) makes its own with `candidateWith(defaults)`.
 */
export function recallMemory(memoryId = 'm', overrides: Partial<RecallMemory> = {}): RecallMemory {
  return {
    memoryId,
    content: `memory ${memoryId}`,
    type: 'semantic',
    importance: 0.5,
    occurredAt: null,
    createdAt: '2024-01-01T00:00:00Z',
    tags: [],
    isConstraint: false,
    ...overrides,
  };
}

/** A candidate as the legs hand it to fusion: `recallMemory` with graphBoost 0 and the given leg scores. */
export function candidate(memoryId = 'm', overrides: Partial<RecallCandidate> = {}): RecallCandidate {
  return { ...recallMemory(memoryId), graphBoost: 0, ...overrides };
}

/** `candidate` with other defaults, still overridden per call. */
export function candidateWith(
  defaults: Partial<RecallCandidate>,
): (memoryId?: string, overrides?: Partial<RecallCandidate>) => RecallCandidate {
  return (memoryId = 'm', overrides = {}) => candidate(memoryId, { ...defaults, ...overrides });
}

/** A result as ranking hands it on: `candidate` with a neutral explanation (no leg, no boost, every factor 1), overridden per call. */
export function rankedCandidate(
  memoryId: string,
  score: number,
  explanation: Partial<ScoreExplanation> = {},
  overrides: Partial<RecallCandidate> = {},
): RankedCandidate {
  return {
    candidate: candidate(memoryId, overrides),
    score,
    explanation: {
      method: 'weighted',
      vector: null,
      keyword: null,
      hint: null,
      entity: null,
      fused: score,
      graphBoost: 0,
      resolution: 1,
      importance: 1,
      time: 1,
      stale: 1,
      staleReason: null,
      pinned: false,
      context: 0,
      rerank: null,
      similarity: null,
      final: score,
      ...explanation,
    },
  };
}
