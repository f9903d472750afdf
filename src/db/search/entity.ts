import type { Executor } from '../executor.js';

/**
 * The entity leg in one statement: the question's words against the namespace's entity names and
 * aliases (two full-text indexes confined to the namespace by its token), then, for each entity
 * found, the memories that mention it. recall/stages/query-entities.ts keeps the entities the
 * question names whole and entity-leg.ts ranks their memories.
 *
 * Per memory, an entity adds its mention confidence divided by ln(e + mentions): a memory naming
 * two of the question's entities outranks one naming one, and a rare entity counts more than a
 * hub. Bounded by work: at most `perEntity` memories per entity (the newest), none for an entity
 * mentioned more than `maxEntityMentions` times (a hub: the boost still walks it) or when the leg
 * is off (`$withMemories`). A filtered recall confines it to its scope (`$scope`), before the
 * per-entity bound. "billing service" names Kestrel when the text called it that (Entity.aliases).
 */
export const NAMED_ENTITY_MEMORIES = `
CALL () {
  CALL db.index.fulltext.queryNodes('entity_name', $query, {limit: toInteger($fetch)}) YIELD node
  RETURN node, false AS viaAlias
  UNION ALL
  CALL db.index.fulltext.queryNodes('entity_alias', $query, {limit: toInteger($fetch)}) YIELD node
  RETURN node, true AS viaAlias
}
WITH node AS e, collect(viaAlias) AS via
CALL (e) {
  WITH e WHERE $withMemories AND coalesce(e.mentions, 0) <= $maxEntityMentions
  MATCH (m:Memory)-[r:MENTIONS]->(e)
  WHERE ($includeDeleted OR m.deletedAt IS NULL) AND ($scope IS NULL OR m.id IN $scope)
  WITH m, r ORDER BY m.createdAt DESC, m.id LIMIT toInteger($perEntity)
  RETURN collect({memoryId: m.id, score: coalesce(r.confidence, 0.5) / log(2.718281828 + coalesce(e.mentions, 1))}) AS memories
}
RETURN e.id AS id, e.name AS name, coalesce(e.aliases, []) AS aliases, coalesce(e.mentions, 0) AS mentions,
       false IN via AS byName, true IN via AS byAlias, memories`;

export interface NamedEntitySearch {
  /** The Lucene query over names and aliases (namespace token AND the question's words). */
  query: string;
  /** Entities fetched from each index. */
  fetch: number;
  /** Whether to read each entity's memories (the entity leg is on). */
  withMemories: boolean;
  perEntity: number;
  maxEntityMentions: number;
  includeDeleted: boolean;
  /** Only these memories (a filtered recall's scope, recall/scope.ts); null: the namespace. */
  scope?: readonly string[] | null;
}

export type NamedEntityRow = {
  id: string;
  name: string;
  aliases: string[];
  mentions: number;
  /** Found by the name index, the alias index (or both). */
  byName: boolean;
  byAlias: boolean;
  /** The memories that mention it (newest first, at most perEntity), each with what this entity adds to its score. */
  memories: Array<{ memoryId: string; score: number }>;
};

export async function namedEntityMemories(executor: Executor, search: NamedEntitySearch): Promise<NamedEntityRow[]> {
  return executor.read<NamedEntityRow>('recall.entity', NAMED_ENTITY_MEMORIES, {
    ...search,
    scope: search.scope ? [...search.scope] : null,
  });
}
