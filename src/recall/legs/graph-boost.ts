import type { Executor } from '../../db/index.js';

/**
 * Query-time graph boost (seed 004 "Knowledge Graph"): query tokens → entities by canonical
 * name → one hop through RELATES_TO both ways → memories that mention any of them. Each step
 * checks the deadline and returns what it has; any error means no boost (invariant 3).
 */

// One unique-index seek per name (namespace, canonicalName) rather than a namespace scan.
const MATCH_ENTITIES = `
UNWIND $names AS name
MATCH (e:Entity {namespace: $namespace, canonicalName: name})
RETURN e.id AS id
ORDER BY e.mentions DESC
LIMIT toInteger($maxEntities)`;

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
  /** Lowercased query tokens; bigrams are added so multi-word names match. */
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
    const names = [...options.tokens, ...options.tokens.slice(1).map((t, i) => `${options.tokens[i]} ${t}`)];
    if (names.length === 0) return result;
    const direct = await withDeadline(
      executor.read<{ id: string }>('recall.boost.entities', MATCH_ENTITIES, { namespace: options.namespace, names, maxEntities: options.maxEntities }),
      deadline,
    );
    if (!direct || late()) return { ...result, timedOut: true };
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
