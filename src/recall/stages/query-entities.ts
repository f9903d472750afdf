import type { Executor } from '../../db/index.js';
import { namedEntityMemories, type NamedEntityRow } from '../../db/search/index.js';
import { coversName, entityNameQuery, type QueryEntity } from './graph-boost.js';

/**
 * The entities a question names, and the memories that mention them, in one statement
 * (db/search/entity.ts): its words against the namespace's entity names and aliases (two
 * full-text indexes confined to the namespace by its token), kept when every word of a name or
 * alias is in the question (coversName). Shared by the entity leg (which ranks the memories) and
 * the graph boost. Failure rule (retrieve.ts): a failed lookup empties the entity leg and the boost.
 */

/** Candidates fetched per entity kept: most are partial matches coversName drops. */
const ENTITY_FETCH_FACTOR = 5;

export type { QueryEntity };

/** A named entity with the memories that mention it (empty for a hub or with the leg off). */
export type NamedEntity = QueryEntity & { memories: NamedEntityRow['memories'] };

export interface QueryEntitiesOptions {
  namespaceToken: string;
  /** Lowercased query tokens (queryTokens). */
  tokens: string[];
  maxEntities: number;
  /** The entity leg's reads; null when the leg is off (the boost alone needs the entities). */
  leg: {
    perEntity: number;
    maxEntityMentions: number;
    includeDeleted: boolean;
    /** A filtered recall's scope (stages/scope.ts); null: the namespace. */
    scope: readonly string[] | null;
  } | null;
}

/** At most `maxEntities`, the most mentioned first (as the boost has always ranked them). */
export async function queryEntities(executor: Executor, options: QueryEntitiesOptions): Promise<NamedEntity[]> {
  const query = entityNameQuery(options.namespaceToken, options.tokens);
  if (!query) return [];
  const { leg } = options;
  const rows = await namedEntityMemories(executor, {
    query,
    fetch: options.maxEntities * ENTITY_FETCH_FACTOR,
    withMemories: leg !== null && leg.scope?.length !== 0,
    perEntity: leg?.perEntity ?? 0,
    maxEntityMentions: leg?.maxEntityMentions ?? 0,
    includeDeleted: leg?.includeDeleted ?? false,
    scope: leg?.scope ?? null,
  });
  return namedByQuestion(rows, options.tokens)
    .sort((a, b) => b.mentions - a.mentions || (a.id < b.id ? -1 : 1))
    .slice(0, options.maxEntities);
}

/** The rows whose name (found by name) or one of whose aliases (found by alias) the question names whole. */
function namedByQuestion(rows: readonly NamedEntityRow[], tokens: readonly string[]): NamedEntity[] {
  const named: NamedEntity[] = [];
  for (const e of rows) {
    const byName = e.byName && coversName(tokens, e.name);
    if (!byName && !(e.byAlias && e.aliases.some((a) => coversName(tokens, a)))) continue;
    named.push({ id: e.id, name: e.name, mentions: e.mentions, byAlias: !byName, memories: e.memories });
  }
  return named;
}
