import type { Executor } from '../../db/index.js';
import { escapeLuceneTerm, queryTokens } from '../lucene.js';

/**
 * Query-time graph boost: query tokens → entities whose every name
 * word the query covers (see coversName) → one hop through RELATES_TO both ways → memories that mention any of them. Each step
 * checks the deadline and returns what it has; any error means no boost (invariant 3).
 */

// The entity-name full-text index, confined to the namespace by its token: exact words and
// prefixes ("postgres" → "PostgreSQL"), names of any length; coversName() then keeps only
// entities whose every word the query names.
const MATCH_ENTITIES = `
CALL db.index.fulltext.queryNodes('entity_name', $query, {limit: toInteger($fetch)}) YIELD node
RETURN node.id AS id, node.name AS name, coalesce(node.mentions, 0) AS mentions`;

/** Entity-name candidates fetched per entity kept: most are partial matches coversName drops. */
const ENTITY_FETCH_FACTOR = 5;
/** A prefix match needs this many characters and this share of the longer word. */
const MIN_PREFIX_CHARS = 5;
const MIN_PREFIX_SHARE = 0.6;

const EXPAND_NEIGHBOURS = `
UNWIND $ids AS id
MATCH (:Entity {id: id})-[:RELATES_TO]-(n:Entity)
WHERE NOT n.id IN $ids
RETURN DISTINCT n.id AS id
LIMIT toInteger($maxNeighbours)`;

const LINKED_MEMORIES = `
UNWIND $entities AS entity
MATCH (m:Memory)-[:MENTIONS]->(:Entity {id: entity.id})
WHERE m.deletedAt IS NULL
RETURN m.id AS memoryId, max(entity.strength) AS strength
LIMIT toInteger($maxMemories)`;

export interface GraphBoostOptions {
  namespace: string;
  /** The namespace's full-text token (confines the entity-name index to the namespace). */
  namespaceToken: string;
  /** Lowercased query tokens (queryTokens). */
  tokens: string[];
  timeoutMs: number;
  maxEntities: number;
  maxNeighbours: number;
  maxMemories: number;
}

export interface GraphBoostResult {
  /** memoryId → link strength: 1 for a named entity, 0.5 for one hop away. */
  strengths: Map<string, number>;
  timedOut: boolean;
  error: string | null;
}

const DIRECT = 1;
const ONE_HOP = 0.5;

export async function graphBoost(executor: Executor, options: GraphBoostOptions): Promise<GraphBoostResult> {
  const deadline = performance.now() + options.timeoutMs;
  const late = () => performance.now() > deadline;
  const result: GraphBoostResult = { strengths: new Map(), timedOut: false, error: null };
  try {
    const query = entityNameQuery(options.namespaceToken, options.tokens);
    if (!query) return result;
    const found = await withDeadline(
      executor.read<{ id: string; name: string; mentions: number }>('recall.boost.entities', MATCH_ENTITIES, { query, fetch: options.maxEntities * ENTITY_FETCH_FACTOR }),
      deadline,
    );
    if (!found || late()) return { ...result, timedOut: true };
    const direct = found
      .filter((e) => coversName(options.tokens, e.name))
      .sort((a, b) => b.mentions - a.mentions)
      .slice(0, options.maxEntities);
    if (direct.length === 0) return result;
    const directIds = direct.map((r) => r.id);
    const hop = await withDeadline(
      executor.read<{ id: string }>('recall.boost.neighbours', EXPAND_NEIGHBOURS, { ids: directIds, maxNeighbours: options.maxNeighbours }),
      deadline,
    );
    const entities = [...directIds.map((id) => ({ id, strength: DIRECT })), ...(hop ?? []).map((r) => ({ id: r.id, strength: ONE_HOP }))];
    const memories = await withDeadline(
      executor.read<{ memoryId: string; strength: number }>('recall.boost.memories', LINKED_MEMORIES, { entities, maxMemories: options.maxMemories }),
      deadline,
    );
    for (const row of memories ?? []) result.strengths.set(row.memoryId, row.strength);
    return { ...result, timedOut: !hop || !memories };
  } catch (error) {
    return { strengths: new Map(), timedOut: false, error: (error as Error).message };
  }
}

/** `namespaceToken:<t>^0 AND (w OR w* …)`; null when the query has no usable word. */
export function entityNameQuery(namespaceToken: string, tokens: readonly string[]): string | null {
  const terms = tokens.flatMap((t) => {
    const escaped = escapeLuceneTerm(t);
    return t.length >= MIN_PREFIX_CHARS ? [escaped, `${escaped}*`] : [escaped];
  });
  return terms.length === 0 ? null : `namespaceToken:${namespaceToken}^0 AND (${terms.join(' OR ')})`;
}

/**
 * True when every word of the entity's name is named by the query: the same word, or one a
 * prefix of the other with at least MIN_PREFIX_CHARS characters and MIN_PREFIX_SHARE of the longer
 * ("postgres" names "PostgreSQL"; "java" does not name "JavaScript").
 */
export function coversName(queryWords: readonly string[], entityName: string): boolean {
  const nameWords = queryTokens(entityName);
  if (nameWords.length === 0) return false;
  return nameWords.every((n) => queryWords.some((q) => q === n || isNamePrefix(q, n) || isNamePrefix(n, q)));
}

function isNamePrefix(short: string, long: string): boolean {
  return short.length >= MIN_PREFIX_CHARS && short.length >= MIN_PREFIX_SHARE * long.length && long.startsWith(short);
}

/** Resolves to null when the deadline passes first; the query is left to finish on its own. */
async function withDeadline<T>(promise: Promise<T>, deadline: number): Promise<T | null> {
  promise.catch(() => undefined); // a late failure must not become an unhandled rejection
  const remaining = deadline - performance.now();
  if (remaining <= 0) return null;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), remaining);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
