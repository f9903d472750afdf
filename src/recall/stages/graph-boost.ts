import type { z } from 'zod/v3';
import type { Executor } from '../../db/index.js';
import { entityNeighbours, memoriesLinkedToEntities } from '../../db/search/index.js';
import { escapeLuceneTerm, queryTokens } from '../../text/index.js';
import { flag, fraction, num, section } from '../settings/fields.js';

export const graphSettings = section({
  enabled: flag()
    .default(false)
    .describe(
      'graph boost: memories that mention the entities the question names, or one hop from them, gain an additive boost; off: its effect alone moved with each ingest and did not pay on the dev sets (docs/recall-quality.md, "Every stage pays for itself")',
    ),
  boostWeight: fraction()
    .default(0.1)
    .describe("additive boost weight; the design's 0.15 lost recall on both dev sets against 0.1 (docs/deviations.md)"),
  maxEntities: num({ int: true, min: 1 }).default(20).describe("entities the question names, at most (also the entity leg's)"),
  maxNeighbours: num({ int: true, min: 0 }).default(50).describe('related entities one RELATES_TO hop away, at most'),
  maxMemories: num({ int: true, min: 1 }).default(200).describe('memories boosted, at most'),
});
export type GraphSettings = z.output<typeof graphSettings>;

/** An entity the query names (query-entities.ts finds them). */
export interface QueryEntity {
  id: string;
  name: string;
  mentions: number;
  /** Found through an alias, not its name. */
  byAlias: boolean;
}

/**
 * The graph boost: the entities the question names (query-entities.ts) → one hop through
 * RELATES_TO both ways, strongest edges first → memories that mention any of them
 * (db/search/graph-boost.ts). Bounded by work, not by a deadline, so a loaded machine gives the
 * same answer: every step has a LIMIT and an order that makes the LIMIT deterministic, and the
 * reads run under the executor's read timeout. Explains `graphBoost` (rank.ts adds
 * `boostWeight × strength`). Failure rule: any error means no boost (invariant 3).
 */

/** A prefix match needs this many characters and this share of the longer word. */
const MIN_PREFIX_CHARS = 5;
const MIN_PREFIX_SHARE = 0.6;

export interface GraphBoostOptions {
  /** The entities the question names (queryEntities). */
  entities: readonly QueryEntity[];
  maxNeighbours: number;
  maxMemories: number;
}

export interface GraphBoostResult {
  /** memoryId → link strength: 1 for a named entity, 0.5 for one hop away. */
  strengths: Map<string, number>;
  error: string | null;
}

const DIRECT = 1;
const ONE_HOP = 0.5;

export async function graphBoost(executor: Executor, options: GraphBoostOptions): Promise<GraphBoostResult> {
  const result: GraphBoostResult = { strengths: new Map(), error: null };
  if (options.entities.length === 0) return result;
  try {
    const directIds = options.entities.map((r) => r.id);
    const hop = await entityNeighbours(executor, directIds, options.maxNeighbours);
    const entities = [...directIds.map((id) => ({ id, strength: DIRECT })), ...hop.map((r) => ({ id: r.id, strength: ONE_HOP }))];
    const memories = await memoriesLinkedToEntities(executor, entities, options.maxMemories);
    for (const row of memories) result.strengths.set(row.memoryId, row.strength);
    return result;
  } catch (error) {
    return { strengths: new Map(), error: (error as Error).message };
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
