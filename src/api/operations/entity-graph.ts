import { NEIGHBOR_DEPTHS } from '../../db/index.js';
import type { AttributeRecord, EntityRecord, NeighborDepth, RelationRecord, RelationView } from '../../db/index.js';
import { NotFoundError, ValidationError } from '../../errors.js';
import type { Caller } from '../caller.js';
import { readableEntity } from '../guards.js';

export type RelationDirection = 'OUT' | 'IN' | 'BOTH';

/** The relations of an entity seen from its side, filtered by direction and type. */
export function relationViews(
  entityId: string,
  rows: RelationRecord[],
  direction: RelationDirection,
  type?: string | null,
): RelationView[] {
  return rows
    .map((r): RelationView => ({ ...r, direction: r.sourceId === entityId ? 'OUT' : 'IN' }))
    .filter((r) => (direction === 'BOTH' || r.direction === direction) && (!type || r.type === type));
}

/** An entity's relations as its nested field lists them (the loader's cap, most mentioned first). */
export async function entityRelations(caller: Caller, entityId: string, direction: RelationDirection, type?: string | null) {
  return relationViews(entityId, await caller.loaders.relationsByEntity.load(entityId), direction, type);
}

/** The supersession chain of an entity's aspect, oldest first: the newest MAX_PAGE_SIZE (at most MAX_ATTRIBUTE_HISTORY). */
export async function attributeHistory(caller: Caller, request: { entityId: string; aspect: string }): Promise<AttributeRecord[]> {
  const found = await readableEntity(caller, request.entityId);
  return caller.services.knowledge.attributeHistory(found.id, request.aspect, caller.limits.maxPageSize);
}

/** One entity's relations: a longer list than its nested field gives (MAX_RELATIONS_QUERY, most mentioned first). */
export async function relations(
  caller: Caller,
  request: { entityId: string; direction: RelationDirection; type?: string | null },
): Promise<RelationView[]> {
  const found = await readableEntity(caller, request.entityId);
  return relationViews(found.id, await caller.services.knowledge.relations(found.id), request.direction, request.type);
}

/** Entities within `depth` hops (1 or 2) of an entity, with the relations walked; NOT_FOUND when it is not readable. */
export async function neighbors(
  caller: Caller,
  request: { entityId: string; depth: number },
): Promise<{ center: EntityRecord; entities: EntityRecord[]; relations: RelationView[] }> {
  const { entityId, depth } = request;
  if (!(NEIGHBOR_DEPTHS as readonly number[]).includes(depth)) throw new ValidationError('depth must be 1 or 2', { field: 'depth' });
  const rows = await caller.services.knowledge.neighborhood(entityId, depth as NeighborDepth);
  if (!rows || !caller.principal.canRead(rows.center.namespace)) throw new NotFoundError('entity', entityId);
  for (const e of [rows.center, ...rows.entities]) caller.loaders.entityById.prime(e.id, e);
  const centerId = rows.center.id;
  const walked = rows.relations.map(
    (r): RelationView => ({ ...r, direction: r.targetId === centerId && r.sourceId !== centerId ? 'IN' : 'OUT' }),
  );
  return { center: rows.center, entities: rows.entities, relations: walked };
}
