import type { Executor } from '../executor.js';

/**
 * Query-time graph boost: the named entities → one hop through RELATES_TO both ways, strongest
 * edges first → memories that mention any of them. Every step has a LIMIT and an order that makes
 * the LIMIT deterministic (recall/stages/graph-boost.ts composes the two reads).
 */

export const EXPAND_NEIGHBOURS = `
UNWIND $ids AS id
MATCH (:Entity {id: id})-[r:RELATES_TO]-(n:Entity)
WHERE NOT n.id IN $ids
WITH n, max(coalesce(r.strength, 0.5)) AS strength
RETURN n.id AS id
ORDER BY strength DESC, id
LIMIT toInteger($maxNeighbours)`;

// Named entities first, then neighbours, each in the order given (most mentioned first).
export const LINKED_MEMORIES = `
UNWIND range(0, size($entities) - 1) AS i
WITH $entities[i] AS entity, i
MATCH (m:Memory)-[:MENTIONS]->(:Entity {id: entity.id})
WHERE m.deletedAt IS NULL
WITH m, max(entity.strength) AS strength, min(i) AS first
RETURN m.id AS memoryId, strength
ORDER BY strength DESC, first, memoryId
LIMIT toInteger($maxMemories)`;

/** The entities one hop from `ids` (not among them), strongest edge first. */
export async function entityNeighbours(executor: Executor, ids: string[], maxNeighbours: number): Promise<Array<{ id: string }>> {
  return executor.read<{ id: string }>('recall.boost.neighbours', EXPAND_NEIGHBOURS, { ids, maxNeighbours });
}

/** Live memories that mention any of the entities, each with its strongest entity's strength. */
export async function memoriesLinkedToEntities(
  executor: Executor,
  entities: Array<{ id: string; strength: number }>,
  maxMemories: number,
): Promise<Array<{ memoryId: string; strength: number }>> {
  return executor.read<{ memoryId: string; strength: number }>('recall.boost.memories', LINKED_MEMORIES, { entities, maxMemories });
}
