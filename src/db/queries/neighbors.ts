import type { Executor } from '../executor.js';
import { ENTITY_RETURN, type EntityRecord, type RelationRecord } from '../records.js';

/** Most relations a neighborhood returns: closer hops first, then the most mentioned. */
export const MAX_NEIGHBORHOOD_RELATIONS = 100;
export const NEIGHBOR_DEPTHS = [1, 2] as const;
export type NeighborDepth = (typeof NEIGHBOR_DEPTHS)[number];

const RELATION_ORDER = 'coalesce(r.mentions, 1) DESC, r.type, elementId(r)';

// A breadth-first walk in two bounded steps, never a path enumeration (parallel relations of
// many types would multiply paths): the center's best relations up to the limit, then, from
// each entity they reach, its best relations up to the limit. Work is the degree of the center
// plus the degrees of at most `limit` entities; the answer is at most `limit` relations.
const HOP_ONE = `
CALL (c) {
  MATCH (c)-[r:RELATES_TO]-(n:Entity)
  WHERE n.namespace = c.namespace
  WITH r, n ORDER BY ${RELATION_ORDER}
  LIMIT toInteger($limit)
  RETURN collect(r) AS hop1, collect(DISTINCT n) AS ring
}`;

const HOP_TWO = `
CALL (c, hop1, ring) {
  UNWIND ring AS n
  WITH n WHERE n <> c
  CALL (c, n) {
    MATCH (n)-[r:RELATES_TO]-(x:Entity)
    WHERE x.namespace = c.namespace AND x <> c
    RETURN r ORDER BY ${RELATION_ORDER}
    LIMIT toInteger($limit)
  }
  WITH DISTINCT r
  ORDER BY ${RELATION_ORDER}
  WITH collect(r) AS found
  RETURN found[..toInteger($limit) - size(hop1)] AS hop2
}`;

export const neighborsQuery = (depth: NeighborDepth) => `
MATCH (c:Entity {id: $id})
${HOP_ONE}
${depth === 2 ? HOP_TWO : 'WITH c, hop1, [] AS hop2'}
WITH c, hop1 + hop2 AS rels
CALL (c, rels) {
  UNWIND rels AS r
  UNWIND [startNode(r), endNode(r)] AS n
  WITH DISTINCT n WHERE n <> c
  RETURN collect(${ENTITY_RETURN('n')}) AS entities
}
RETURN ${ENTITY_RETURN('c')} AS center, entities, [r IN rels | {
  sourceId: startNode(r).id, targetId: endNode(r).id, type: r.type,
  strength: coalesce(r.strength, 1.0), confidence: coalesce(r.confidence, 1.0), mentions: coalesce(r.mentions, 1) }] AS relations`;

const NEIGHBORS: Record<NeighborDepth, string> = { 1: neighborsQuery(1), 2: neighborsQuery(2) };

export interface NeighborhoodRows {
  center: EntityRecord;
  entities: EntityRecord[];
  relations: RelationRecord[];
}

/** Entities within `depth` hops of an entity, never leaving its namespace; null when it does not exist. */
export async function neighborhood(executor: Executor, id: string, depth: NeighborDepth): Promise<NeighborhoodRows | null> {
  const [row] = await executor.read<NeighborhoodRows & Record<string, unknown>>('graph.neighbors', NEIGHBORS[depth], {
    id,
    limit: MAX_NEIGHBORHOOD_RELATIONS,
  });
  return row ?? null;
}
