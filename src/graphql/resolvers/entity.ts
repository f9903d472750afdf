import { entityRelations } from '../../api/index.js';
import type { EntityRecord } from '../../api/index.js';
import type { AspectResolvers, AttributeResolvers, EntityResolvers, RelationResolvers } from '../generated/types.js';
import type { GraphQLContext } from '../context.js';

async function entityOrThrow({ caller }: GraphQLContext, id: string): Promise<EntityRecord> {
  const entity = await caller.loaders.entityById.load(id);
  if (!entity) throw new Error(`entity ${id} vanished while resolving`);
  return entity;
}

export const Entity: EntityResolvers = {
  type: (e) => e.type as never,
  aspects: (e, _, { caller }) => caller.loaders.aspectsByEntity.load(e.id),
  relations: (e, { direction, type }, { caller }) => entityRelations(caller, e.id, direction ?? 'BOTH', type),
  relationCount: (e, _, { caller }) => caller.loaders.relationCountByEntity.load(e.id),
  memories: async (e, { first }, { caller }) => (await caller.loaders.memoriesByEntity.load(e.id)).slice(0, Math.max(0, first ?? 10)),
};

export const Aspect: AspectResolvers = {
  entity: (a, _, ctx) => entityOrThrow(ctx, a.entityId),
  attributes: async (a, { includeSuperseded }, { caller }) => {
    const rows = await caller.loaders.attributesByAspect.load(a.id);
    return includeSuperseded ? rows : rows.filter((r) => r.status === 'active');
  },
};

export const Attribute: AttributeResolvers = {
  kind: (a) => a.kind as never,
  status: (a) => a.status as never,
  supersedes: (a, _, { caller }) => (a.supersedesId ? caller.loaders.attributeById.load(a.supersedesId) : null),
  supersededBy: (a, _, { caller }) => (a.supersededById ? caller.loaders.attributeById.load(a.supersededById) : null),
  source: (a, _, { caller }) => (a.memoryId ? caller.loaders.memoryById.load(a.memoryId) : null),
};

export const Relation: RelationResolvers = {
  source: (r, _, ctx) => entityOrThrow(ctx, r.sourceId),
  target: (r, _, ctx) => entityOrThrow(ctx, r.targetId),
};
