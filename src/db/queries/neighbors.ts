import type { Executor } from '../executor.js';
import { ENTITY_RETURN, type EntityRecord, type RelationRecord } from '../records.js';

/** Most relations a neighborhood returns: closer hops first, then the most mentioned. */
export const MAX_NEIGHBORHOOD_RELATIONS = 500;
export const NEIGHBOR_DEPTHS = [1, 2] as const;
export type NeighborDepth = (typeof NEIGHBOR_DEPTHS)[number];

// Variable-length bounds cannot be parameters, so there is one query per allowed depth.
const neighborsQuery = (depth: NeighborDepth) => `
MATCH (c:Entity {id: $id})
CALL (c) {
  MATCH p = (c)-[:RELATES_TO*1..${depth}]-(:Entity)
  WHERE all(n IN nodes(p) WHERE n.namespace = c.namespace)
  UNWIND relationships(p) AS r
  WITH r, min(length(p)) AS hops
  ORDER BY hops, coalesce(r.mentions, 1) DESC, r.type, elementId(r)
  LIMIT toInteger($limit)
  RETURN collect(r) AS rels
}
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
  const [row] = await executor.read<NeighborhoodRows & Record<string, unknown>>('graph.neighbors', NEIGHBORS[depth], { id, limit: MAX_NEIGHBORHOOD_RELATIONS });
  return row ?? null;
}
