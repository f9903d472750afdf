import { memoriesPage } from '../../db/index.js';
import { LimitExceededError } from '../../errors.js';
import { pageSize } from '../../api/index.js';
import { iso } from '../args.js';
import type { QueryResolvers } from '../generated/types.js';

/** Memories by id (namespace-filtered in the loader) and the paginated listing. */
export const memoryQueries: Pick<QueryResolvers, 'memory' | 'memories' | 'memoriesConnection'> = {
  memory: (_, { id }, ctx) => ctx.caller.loaders.memoryById.load(id),

  memories: async (_, { ids }, ctx) => {
    const max = ctx.caller.services.config.MAX_PAGE_SIZE;
    if (ids.length > max)
      throw new LimitExceededError(`at most ${max} ids per call (MAX_PAGE_SIZE); got ${ids.length}`, { field: 'ids', max });
    const rows = await ctx.caller.loaders.memoryById.loadMany(ids);
    return rows.map((r) => (r instanceof Error ? null : r));
  },

  memoriesConnection: async (_, { namespace, filters, first, after }, ctx) => {
    const page = await memoriesPage(ctx.caller.services.executor, {
      namespace: ctx.caller.namespaceFor(namespace, 'read'),
      first: pageSize(first, ctx.caller.services.config.MAX_PAGE_SIZE),
      after,
      filters: { ...filters, occurredAfter: iso(filters?.occurredAfter), occurredBefore: iso(filters?.occurredBefore) },
    });
    for (const { node } of page.edges) ctx.caller.loaders.memoryById.prime(node.id, node);
    return page;
  },
};
