import type { LegExplanation, RankedCandidate } from '../../recall/index.js';
import type { RecallItemView } from '../../recall/index.js';
import { iso } from '../args.js';
import type { QueryResolvers, ScoreExplain } from '../generated/types.js';

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
      filters: args.filters
        ? { ...args.filters, occurredAfter: iso(args.filters.occurredAfter), occurredBefore: iso(args.filters.occurredBefore) }
        : null,
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

  search: async (_, args, ctx) => {
    const namespace = ctx.caller.namespaceFor(args.namespace, 'read');
    const filters = args.filters
      ? { ...args.filters, occurredAfter: iso(args.filters.occurredAfter), occurredBefore: iso(args.filters.occurredBefore) }
      : null;
    const result = await ctx.caller.services.disclosure.search({
      query: args.query,
      namespace,
      limit: args.limit ?? 20,
      offset: args.offset ?? 0,
      filters,
    });
    return { ...result, hits: result.hits.map((h) => ({ ...h, type: h.type as never })) };
  },

  timeline: async (_, args, ctx) => {
    const namespace = ctx.caller.namespaceFor(args.namespace, 'read');
    return ctx.caller.services.disclosure.timeline({
      namespace,
      anchor: args.anchor,
      query: args.query,
      before: args.before ?? 5,
      after: args.after ?? 5,
    });
  },
};
