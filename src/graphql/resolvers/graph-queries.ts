import { aspect, attributeHistory, entities, entity, neighbors, relations } from '../../api/index.js';
import type { QueryResolvers } from '../generated/types.js';

/** Reads of the entity graph. Everything addressed by id goes through the namespace-filtering loaders. */
export const graphQueries: Pick<QueryResolvers, 'entity' | 'entities' | 'aspect' | 'attributeHistory' | 'relations' | 'neighbors'> = {
  entity: (_, { id, name, namespace }, { caller }) => entity(caller, { id, name, namespace }),
  entities: (_, { namespace, search, type, first, after }, { caller }) => entities(caller, { namespace, search, type, first, after }),
  aspect: (_, { id }, { caller }) => aspect(caller, id),
  attributeHistory: (_, { entityId, aspect }, { caller }) => attributeHistory(caller, { entityId, aspect }),
  relations: (_, { entityId, direction, type }, { caller }) => relations(caller, { entityId, direction: direction ?? 'BOTH', type }),
  neighbors: (_, { entityId, depth }, { caller }) => neighbors(caller, { entityId, depth }),
};
