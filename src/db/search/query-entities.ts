import type { Executor } from '../executor.js';

/**
 * The entities a question may name: its words against the namespace's entity names and aliases,
 * two full-text indexes confined to the namespace by its token (recall/stages/query-entities.ts
 * builds the query and keeps the entities the question names whole).
 */

export const MATCH_NAMES = `
CALL db.index.fulltext.queryNodes('entity_name', $query, {limit: toInteger($fetch)}) YIELD node
RETURN node.id AS id, node.name AS name, [] AS aliases, coalesce(node.mentions, 0) AS mentions`;

// "billing service" names Kestrel when the text called it that (Entity.aliases).
export const MATCH_ALIASES = `
CALL db.index.fulltext.queryNodes('entity_alias', $query, {limit: toInteger($fetch)}) YIELD node
RETURN node.id AS id, node.name AS name, coalesce(node.aliases, []) AS aliases, coalesce(node.mentions, 0) AS mentions`;

export type EntityNameMatch = {
  id: string;
  name: string;
  /** Empty for a match by name. */
  aliases: string[];
  mentions: number;
};

/** Both lookups at once: the entities matched by name, and those matched by alias. */
export async function entityNameMatches(
  executor: Executor,
  query: string,
  fetch: number,
): Promise<{ names: EntityNameMatch[]; aliases: EntityNameMatch[] }> {
  const params = { query, fetch };
  const [names, aliases] = await Promise.all([
    executor.read<EntityNameMatch>('recall.entities.names', MATCH_NAMES, params),
    executor.read<EntityNameMatch>('recall.entities.aliases', MATCH_ALIASES, params),
  ]);
  return { names, aliases };
}
