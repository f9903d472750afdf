import type { Executor } from '../executor.js';
import type { ScoredMemory } from './keyword.js';

/**
 * The entity leg: memories that mention the entities the question names, ranked by how much of
 * the question they name. Each named entity adds its mention confidence divided by ln(e +
 * mentions): a memory naming two of the question's entities outranks one naming one, and a rare
 * entity counts more than a hub. Bounded by work: at most `perEntity` memories per entity (the
 * newest), entities mentioned more than `maxEntityMentions` times left to the boost, `limit` rows.
 * A filtered recall confines it to its scope (`$scope`), before the per-entity bound.
 */
export const ENTITY_LEG = `
UNWIND $ids AS id
MATCH (e:Entity {id: id})
WHERE coalesce(e.mentions, 0) <= $maxEntityMentions
CALL (e) {
  MATCH (m:Memory)-[r:MENTIONS]->(e)
  WHERE ($includeDeleted OR m.deletedAt IS NULL) AND ($scope IS NULL OR m.id IN $scope)
  RETURN m, r
  ORDER BY m.createdAt DESC, m.id
  LIMIT toInteger($perEntity)
}
WITH m, sum(coalesce(r.confidence, 0.5) / log(2.718281828 + coalesce(e.mentions, 1))) AS score
RETURN m.id AS memoryId, score
ORDER BY score DESC, memoryId
LIMIT toInteger($limit)`;

export interface EntityMentionSearch {
  /** The named entities' ids. */
  entityIds: readonly string[];
  limit: number;
  perEntity: number;
  maxEntityMentions: number;
  includeDeleted: boolean;
  /** Only these memories (a filtered recall's scope, recall/scope.ts); null: the namespace. */
  scope?: readonly string[] | null;
}

export async function entityMentionMatches(executor: Executor, search: EntityMentionSearch): Promise<ScoredMemory[]> {
  return executor.read<ScoredMemory>('recall.entity', ENTITY_LEG, {
    ids: [...search.entityIds],
    limit: search.limit,
    perEntity: search.perEntity,
    maxEntityMentions: search.maxEntityMentions,
    includeDeleted: search.includeDeleted,
    scope: search.scope ? [...search.scope] : null,
  });
}
