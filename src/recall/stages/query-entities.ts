import type { Executor } from '../../db/index.js';
import { entityNameMatches } from '../../db/search/index.js';
import { coversName, entityNameQuery, type QueryEntity } from './graph-boost.js';

/**
 * The entities a question names: its words against the namespace's entity names and aliases
 * (two full-text indexes confined to the namespace by its token, db/search/query-entities.ts),
 * kept when every word of a name or alias is in the question (coversName). Shared by the entity
 * leg and the graph boost. Failure rule (retrieve.ts): a failed lookup empties the entity leg and
 * the boost.
 */

/** Candidates fetched per entity kept: most are partial matches coversName drops. */
const ENTITY_FETCH_FACTOR = 5;

export type { QueryEntity };

export interface QueryEntitiesOptions {
  namespaceToken: string;
  /** Lowercased query tokens (queryTokens). */
  tokens: string[];
  maxEntities: number;
}

/** At most `maxEntities`, the most mentioned first (as the boost has always ranked them). */
export async function queryEntities(executor: Executor, options: QueryEntitiesOptions): Promise<QueryEntity[]> {
  const query = entityNameQuery(options.namespaceToken, options.tokens);
  if (!query) return [];
  const { names, aliases } = await entityNameMatches(executor, query, options.maxEntities * ENTITY_FETCH_FACTOR);
  const found = new Map<string, QueryEntity>();
  for (const e of names)
    if (coversName(options.tokens, e.name)) found.set(e.id, { id: e.id, name: e.name, mentions: e.mentions, byAlias: false });
  for (const e of aliases) {
    if (!found.has(e.id) && e.aliases.some((a) => coversName(options.tokens, a)))
      found.set(e.id, { id: e.id, name: e.name, mentions: e.mentions, byAlias: true });
  }
  return [...found.values()].sort((a, b) => b.mentions - a.mentions || (a.id < b.id ? -1 : 1)).slice(0, options.maxEntities);
}
