import type { LegExplanation, RankedCandidate, RecallAnswer, RecallItemView } from '../../api/index.js';
import type { ResolversTypes, ScoreExplain, ScoreExplainResolvers } from '../generated/types.js';

/**
 * Raw BM25 scores carry term statistics of every namespace in the shared full-text index (a
 * side channel between tenants): the text legs are reported relative to the query's best match.
 */
function toExplain(item: RecallItemView, bestText: number): ScoreExplain {
  const e = item.explanation;
  const relative = (leg: LegExplanation | null) => (leg ? { ...leg, raw: bestText > 0 ? leg.raw / bestText : 0 } : null);
  // Deprecated fields of stages that were removed read as "not applied".
  const removed = { gravity: 1, hub: 1, recency: 1, validity: 1 };
  return { ...e, ...removed, method: e.method, keyword: relative(e.keyword), hint: relative(e.hint), rerank: e.rerank };
}

function bestTextScore(ranked: readonly RankedCandidate[]): number {
  let best = 0;
  for (const { explanation: e } of ranked) best = Math.max(best, e.keyword?.raw ?? 0, e.hint?.raw ?? 0);
  return best;
}

/** recall's answer as RecallResult: each item's explanation only when asked for. */
export function recallResult(answer: RecallAnswer, explain: boolean): ResolversTypes['RecallResult'] {
  const bestText = explain ? bestTextScore(answer.ranked) : 0;
  return {
    items: answer.items.map((item) => ({
      memory: item.memory,
      score: item.score,
      tokens: item.tokens,
      explain: explain ? toExplain(item, bestText) : null,
    })),
    totalTokens: answer.totalTokens,
    budgetUsed: answer.budgetUsed,
    prompt: answer.prompt,
    boostTimedOut: false,
    rerankApplied: answer.rerankApplied,
    tookMs: answer.tookMs,
    transcripts: answer.transcripts,
    checkpoint: answer.checkpoint,
  };
}

export const ScoreExplainFields: ScoreExplainResolvers = {
  stale: (e) => e.stale ?? 1,
};
