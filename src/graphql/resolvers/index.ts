import type { Resolvers } from '../generated/types.js';
import { Document } from './document.js';
import { Aspect, Attribute, Entity, Relation } from './entity.js';
import { HistoryEvent, Memory } from './memory.js';
import { Mutation } from './mutation.js';
import { Job, PipelineStatus } from './pipeline.js';
import { Query } from './query.js';
import { ScoreExplainFields } from './recall.js';
import { scalarResolvers } from './scalars.js';
import { Session } from './session.js';

/** The schema's resolver map, one entry per type; cross-cutting work is in the Apollo plugins (src/graphql/plugins). */
export const resolvers: Resolvers = {
  ...scalarResolvers,
  Query,
  Mutation,
  Memory,
  HistoryEvent,
  Entity,
  Aspect,
  Attribute,
  Relation,
  Job,
  PipelineStatus,
  Session,
  Document,
  ScoreExplain: ScoreExplainFields,
};
