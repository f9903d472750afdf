import type { LegExplanation, RankedCandidate } from '../../recall/index.js';
import type { RecallItemView } from '../../recall/index.js';
import { search, timeline } from '../../api/index.js';
import { iso } from '../args.js';
import type { InputMaybe, QueryResolvers, RecallFilters, ScoreExplain } from '../generated/types.js';

/**
 * Raw BM25 scores carry term statistics of every namespace in the shared full-text index (a
 * side channel between tenants): the text legs are reported relative to the query's best match.
 */
function toExplain(item: RecallItemView, bestText: number): ScoreExplain {
  const e = item.explanation;
  const relative = (leg: LegExplanation | null) => (leg ? { ...leg, raw: bestText > 0 ? leg.raw / bestText : 0 } : null);
  return { ...e, method: e.method, keyword: relative(e.keyword), hint: relative(e.hint), rerank: e.rerank };
}

function bestTextScore(ranked: readonly RankedCandidate[]): number {
  let best = 0;
  for (const { explanation: e } of ranked) best = Math.max(best, e.keyword?.raw ?? 0, e.hint?.raw ?? 0);
  return best;
}

/** Recall filters with their DateTimes as ISO strings. */
function recallFilters(filters: InputMaybe<RecallFilters>) {
  return filters ? { ...filters, occurredAfter: iso(filters.occurredAfter), occurredBefore: iso(filters.occurredBefore) } : null;
}

/** recall, search and timeline: progressive disclosure over the same ranking. */
export const recallQueries: Pick<QueryResolvers, 'recall' | 'search' | 'timeline'> = {
  recall: async (_, args, ctx) => {
    const namespace = ctx.caller.namespaceFor(args.namespace, 'read');
    const outcome = await ctx.caller.services.recall.recall({
      query: args.query,
      namespace,
      limit: args.limit,
      tokenBudget: args.tokenBudget ?? undefined,
      asOf: iso(args.asOf),
      filters: recallFilters(args.filters),
    });
    const bestText = args.explain ? bestTextScore(outcome.ranked) : 0;
    return {
      items: outcome.items.map((item) => ({
        memory: item.memory,
        score: item.score,
        tokens: item.tokens,
        explain: args.explain ? toExplain(item, bestText) : null,
      })),
      totalTokens: outcome.totalTokens,
      budgetUsed: outcome.budgetUsed,
      prompt: outcome.prompt,
      boostTimedOut: outcome.boostTimedOut,
      rerankApplied: outcome.rerankApplied,
      tookMs: outcome.tookMs,
    };
  },

  search: async (_, args, { caller }) => {
    const result = await search(caller, {
      query: args.query,
      namespace: args.namespace,
      limit: args.limit ?? 20,
      offset: args.offset ?? 0,
      filters: recallFilters(args.filters),
    });
    return { ...result, hits: result.hits.map((h) => ({ ...h, type: h.type as never })) };
  },

  timeline: (_, args, { caller }) =>
    timeline(caller, {
      namespace: args.namespace,
      anchor: args.anchor,
      query: args.query,
      before: args.before ?? 5,
      after: args.after ?? 5,
    }),
};
