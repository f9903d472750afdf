import { checkHealth } from '../../health.js';
import type { QueryResolvers } from '../generated/types.js';
import { graphQueries } from './graph-queries.js';
import { memoryQueries } from './memory-queries.js';
import { pipelineQueries } from './pipeline.js';
import { recallQueries } from './recall.js';

export const Query: QueryResolvers = {
  ...recallQueries,
  ...memoryQueries,
  ...graphQueries,
  ...pipelineQueries,

  health: async (_, __, ctx) => {
    const report = await checkHealth(ctx.caller.services);
    return { ...report, worker: ctx.caller.services.workerState() };
  },
};
