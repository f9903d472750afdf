import type { EntityRecord, RelationRecord, RelationView } from '../../db/index.js';
import type { AspectResolvers, AttributeResolvers, EntityResolvers, RelationResolvers } from '../generated/types.js';
import type { GraphQLContext } from '../context.js';

/** The relations of an entity seen from its side, filtered by direction and type. */
export function relationViews(
  entityId: string,
  rows: RelationRecord[],
  direction: 'OUT' | 'IN' | 'BOTH',
  type?: string | null,
): RelationView[] {
  return rows
    .map((r): RelationView => ({ ...r, direction: r.sourceId === entityId ? 'OUT' : 'IN' }))
    .filter((r) => (direction === 'BOTH' || r.direction === direction) && (!type || r.type === type));
}

async function entityOrThrow(ctx: GraphQLContext, id: string): Promise<EntityRecord> {
  const entity = await ctx.caller.loaders.entityById.load(id);
  if (!entity) throw new Error(`entity ${id} vanished while resolving`);
  return entity;
}

export const Entity: EntityResolvers = {
  type: (e) => e.type as never,
  aspects: (e, _, ctx) => ctx.caller.loaders.aspectsByEntity.load(e.id),
  relations: async (e, { direction, type }, ctx) =>
    relationViews(e.id, await ctx.caller.loaders.relationsByEntity.load(e.id), direction ?? 'BOTH', type),
  relationCount: (e, _, ctx) => ctx.caller.loaders.relationCountByEntity.load(e.id),
  memories: async (e, { first }, ctx) => (await ctx.caller.loaders.memoriesByEntity.load(e.id)).slice(0, Math.max(0, first ?? 10)),
};

export const Aspect: AspectResolvers = {
  entity: (a, _, ctx) => entityOrThrow(ctx, a.entityId),
  attributes: async (a, { includeSuperseded }, ctx) => {
    const rows = await ctx.caller.loaders.attributesByAspect.load(a.id);
    return includeSuperseded ? rows : rows.filter((r) => r.status === 'active');
  },
};

export const Attribute: AttributeResolvers = {
  kind: (a) => a.kind as never,
  status: (a) => a.status as never,
  supersedes: (a, _, ctx) => (a.supersedesId ? ctx.caller.loaders.attributeById.load(a.supersedesId) : null),
  supersededBy: (a, _, ctx) => (a.supersededById ? ctx.caller.loaders.attributeById.load(a.supersededById) : null),
  source: (a, _, ctx) => (a.memoryId ? ctx.caller.loaders.memoryById.load(a.memoryId) : null),
};

export const Relation: RelationResolvers = {
  source: (r, _, ctx) => entityOrThrow(ctx, r.sourceId),
  target: (r, _, ctx) => entityOrThrow(ctx, r.targetId),
};
