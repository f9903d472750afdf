import { entitiesPage } from '../../db/index.js';
import { attributeHistory, entityByName, MAX_RELATIONS_QUERY, relationsByEntityIds } from '../../db/index.js';
import { NEIGHBOR_DEPTHS, neighborhood, type NeighborDepth } from '../../db/index.js';
import type { RelationView } from '../../db/index.js';
import { NotFoundError, ValidationError } from '../../errors.js';
import { pageSize } from '../../api/index.js';
import type { QueryResolvers } from '../generated/types.js';
import { readableEntity } from '../../api/index.js';
import { relationViews } from './entity.js';

const MAX_SEARCH_CHARS = 200;

/** Reads of the entity graph. Everything addressed by id goes through the namespace-filtering loaders. */
export const graphQueries: Pick<QueryResolvers, 'entity' | 'entities' | 'aspect' | 'attributeHistory' | 'relations' | 'neighbors'> = {
  entity: async (_, { id, name, namespace }, ctx) => {
    if (id) {
      const scope = namespace == null ? null : ctx.caller.namespaceFor(namespace, 'read');
      const entity = await ctx.caller.loaders.entityById.load(id);
      return entity && (scope === null || entity.namespace === scope) ? entity : null;
    }
    if (!name) throw new ValidationError('entity needs an id or a name');
    return entityByName(ctx.caller.services.executor, ctx.caller.namespaceFor(namespace, 'read'), name);
  },

  entities: async (_, { namespace, search, type, first, after }, ctx) => {
    if (search && search.length > MAX_SEARCH_CHARS)
      throw new ValidationError(`search is longer than ${MAX_SEARCH_CHARS} characters`, { field: 'search' });
    const page = await entitiesPage(ctx.caller.services.executor, {
      namespace: ctx.caller.namespaceFor(namespace, 'read'),
      search,
      type,
      first: pageSize(first, ctx.caller.services.config.MAX_PAGE_SIZE),
      after,
    });
    for (const { node } of page.edges) ctx.caller.loaders.entityById.prime(node.id, node);
    return page;
  },

  aspect: (_, { id }, ctx) => ctx.caller.loaders.aspectById.load(id),

  attributeHistory: async (_, { entityId, aspect }, ctx) => {
    const entity = await readableEntity(ctx.caller, entityId);
    // Bounded like a page: the newest MAX_PAGE_SIZE (at most MAX_ATTRIBUTE_HISTORY), oldest first.
    return attributeHistory(ctx.caller.services.executor, entity.id, aspect, ctx.caller.services.config.MAX_PAGE_SIZE);
  },

  relations: async (_, { entityId, direction, type }, ctx) => {
    const entity = await readableEntity(ctx.caller, entityId);
    // One entity, so a longer list than Entity.relations' loader gives (MAX_RELATIONS_QUERY, most mentioned first).
    const rows = await relationsByEntityIds(ctx.caller.services.executor, [entity.id], MAX_RELATIONS_QUERY);
    return relationViews(
      entity.id,
      rows.map((r) => r.row),
      direction ?? 'BOTH',
      type,
    );
  },

  neighbors: async (_, { entityId, depth }, ctx) => {
    if (!(NEIGHBOR_DEPTHS as readonly number[]).includes(depth)) throw new ValidationError('depth must be 1 or 2', { field: 'depth' });
    const rows = await neighborhood(ctx.caller.services.executor, entityId, depth as NeighborDepth);
    if (!rows || !ctx.caller.principal.canRead(rows.center.namespace)) throw new NotFoundError('entity', entityId);
    for (const e of [rows.center, ...rows.entities]) ctx.caller.loaders.entityById.prime(e.id, e);
    const centerId = rows.center.id;
    const relations = rows.relations.map(
      (r): RelationView => ({ ...r, direction: r.targetId === centerId && r.sourceId !== centerId ? 'IN' : 'OUT' }),
    );
    return { center: rows.center, entities: rows.entities, relations };
  },
};
