import { health } from '../../api/index.js';
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

  health: (_, __, { caller }) => health(caller),
};
