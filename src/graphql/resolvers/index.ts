import type { Resolvers } from '../generated/types.js';
import { Aspect, Attribute, Entity, Relation } from './entity.js';
import { HistoryEvent, Memory } from './memory.js';
import { Mutation } from './mutation.js';
import { Job } from './pipeline.js';
import { Query } from './query.js';
import { scalarResolvers } from './scalars.js';
import { withUpkeep } from './upkeep.js';
import { withCompression } from './compress.js';
import { withExplorer } from './explorer.js';
import { withSessions } from './sessions.js';

export const resolvers: Resolvers = withSessions(
  withExplorer(
    withCompression(withUpkeep({ ...scalarResolvers, Query, Mutation, Memory, HistoryEvent, Entity, Aspect, Attribute, Relation, Job })),
  ),
);
