import { entityByName } from '../../db/queries/graph.js';
import { ValidationError } from '../../errors.js';
import { checkHealth } from '../../health.js';
import type { QueryResolvers } from '../generated/types.js';
import { recallQueries } from './recall.js';

export const Query: QueryResolvers = {
  ...recallQueries,

  health: async (_, __, ctx) => {
    const report = await checkHealth(ctx.services);
    return { ...report, worker: ctx.services.workerState() };
  },

  memory: (_, { id }, ctx) => ctx.loaders.memoryById.load(id),

  memories: (_, { ids }, ctx) => {
    if (ids.length > ctx.services.config.MAX_PAGE_SIZE) {
      throw new ValidationError(`at most ${ctx.services.config.MAX_PAGE_SIZE} ids per call (MAX_PAGE_SIZE)`);
    }
    return ctx.loaders.memoryById.loadMany(ids).then((rows) => rows.map((r) => (r instanceof Error ? null : r)));
  },

  entity: async (_, { id, name, namespace }, ctx) => {
    if (id) return ctx.loaders.entityById.load(id);
    if (!name) throw new ValidationError('entity needs an id or a name');
    return entityByName(ctx.services.executor, ctx.namespaceFor(namespace, 'read'), name);
  },
};
