import type { Executor } from '../executor.js';
import { namespaceToken } from '../../text/index.js';
import { escapeLuceneTerm } from '../../text/index.js';
import { cleanText } from '../../text/index.js';
import {
  ASPECT_RETURN,
  ENTITY_RETURN,
  MEMORY_RETURN,
  type AspectRecord,
  type AttributeRecord,
  type EntityRecord,
  type HistoryRecord,
  type MemoryRecord,
  type RelationRecord,
} from '../records.js';

/**
 * Batched reads of the entity graph, one query per batch of keys (the DataLoaders call these).
 * Every function returns rows tagged with the key they belong to. A walk from one node to its
 * neighbours never leaves the start node's namespace, whatever edges the graph holds.
 */

export const ATTRIBUTE_RETURN = (attr: string, asp: string) => `${attr} {
  .id, namespace: coalesce(${attr}.namespace, ${asp}.namespace), aspectId: ${asp}.id,
  memoryId: [(${attr})-[:FROM]->(src:Memory) WHERE src.namespace = ${asp}.namespace | src.id][0],
  .content, .kind, importance: coalesce(${attr}.importance, 0.5), confidence: coalesce(${attr}.confidence, 1.0),
  .status, .validFrom, .validTo,
  supersedesId: [(${attr})-[:SUPERSEDES]->(old:Attribute) WHERE old.namespace = ${asp}.namespace | old.id][0],
  supersededById: [(${attr})<-[:SUPERSEDES]-(newer:Attribute) WHERE newer.namespace = ${asp}.namespace | newer.id][0] }`;

export const ENTITIES_BY_IDS = `
UNWIND $ids AS id
MATCH (e:Entity {id: id})
RETURN id AS key, ${ENTITY_RETURN('e')} AS row`;

/**
 * How many rows each relationship list returns per key (the cost rule in src/graphql/cost-limit.ts
 * prices these lists at the same sizes). A list is cut to its most useful rows: the most mentioned
 * entities and relations, the heaviest aspects, active attributes before superseded ones, the
 * newest history events; the rows kept come back in the list's usual order.
 */
export const MAX_ENTITIES_PER_MEMORY = 20;
export const MAX_ATTRIBUTES_PER_MEMORY = 20;
export const MAX_HISTORY_PER_MEMORY = 20;
export const MAX_ASPECTS_PER_ENTITY = 6;
export const MAX_ATTRIBUTES_PER_ASPECT = 5;
/** Entity.relations; Query.relations (one entity at a time) returns up to MAX_RELATIONS_QUERY. */
export const MAX_RELATIONS_PER_ENTITY = 10;
export const MAX_RELATIONS_QUERY = 50;
/** attributeHistory returns at most this many (or MAX_PAGE_SIZE if smaller): the newest, oldest first. */
export const MAX_ATTRIBUTE_HISTORY = 100;

// Each key's rows are chosen in a subquery of their own, so one dense key cannot crowd out the others.
export const ENTITIES_BY_MEMORY = `
UNWIND $ids AS id
CALL (id) {
  MATCH (m:Memory {id: id})-[:MENTIONS]->(e:Entity)
  WHERE e.namespace = m.namespace
  RETURN e ORDER BY e.mentions DESC, e.canonicalName LIMIT toInteger($limit)
}
RETURN id AS key, ${ENTITY_RETURN('e')} AS row`;

export const ATTRIBUTES_BY_MEMORY = `
UNWIND $ids AS id
CALL (id) {
  MATCH (asp:Aspect)-[:HAS_ATTRIBUTE]->(attr:Attribute)-[:FROM]->(m:Memory {id: id})
  WHERE asp.namespace = m.namespace
  RETURN asp, attr ORDER BY attr.status = 'active' DESC, attr.validFrom DESC, attr.id LIMIT toInteger($limit)
}
RETURN id AS key, ${ATTRIBUTE_RETURN('attr', 'asp')} AS row
ORDER BY key, attr.validFrom, attr.id`;

export const HISTORY_BY_MEMORY = `
UNWIND $ids AS id
CALL (id) {
  MATCH (h:HistoryEvent)-[:ABOUT]->(:Memory {id: id})
  RETURN h ORDER BY h.at DESC, h.id DESC LIMIT toInteger($limit)
}
RETURN id AS key, h { .id, .event, memoryId: id, .reason, .actor, .model, .confidence, .outcome, .at, .details } AS row
ORDER BY key, h.at, h.id`;

export const ASPECTS_BY_ENTITY = `
UNWIND $ids AS id
CALL (id) {
  MATCH (e:Entity {id: id})-[:HAS_ASPECT]->(a:Aspect)
  WHERE a.namespace = e.namespace
  RETURN e, a ORDER BY a.weight DESC, a.canonicalName LIMIT toInteger($limit)
}
RETURN id AS key, ${ASPECT_RETURN('a', 'e')} AS row`;

export const ASPECTS_BY_IDS = `
UNWIND $ids AS id
MATCH (e:Entity)-[:HAS_ASPECT]->(a:Aspect {id: id})
RETURN id AS key, ${ASPECT_RETURN('a', 'e')} AS row`;

export const ATTRIBUTES_BY_ASPECT = `
UNWIND $ids AS id
CALL (id) {
  MATCH (asp:Aspect {id: id})-[:HAS_ATTRIBUTE]->(attr:Attribute)
  RETURN asp, attr ORDER BY attr.status = 'active' DESC, attr.validFrom DESC, attr.id LIMIT toInteger($limit)
}
RETURN id AS key, ${ATTRIBUTE_RETURN('attr', 'asp')} AS row
ORDER BY key, attr.validFrom, attr.id`;

export const ATTRIBUTES_BY_IDS = `
UNWIND $ids AS id
MATCH (asp:Aspect)-[:HAS_ATTRIBUTE]->(attr:Attribute {id: id})
RETURN id AS key, ${ATTRIBUTE_RETURN('attr', 'asp')} AS row`;

export const RELATIONS_BY_ENTITY = `
UNWIND $ids AS id
CALL (id) {
  MATCH (e:Entity {id: id})-[r:RELATES_TO]-(other:Entity)
  WHERE other.namespace = e.namespace
  RETURN r ORDER BY coalesce(r.mentions, 1) DESC, r.type, startNode(r).id, endNode(r).id LIMIT toInteger($limit)
}
RETURN id AS key, {
  id: r.id, sourceId: startNode(r).id, targetId: endNode(r).id, type: r.type,
  strength: coalesce(r.strength, 1.0), confidence: coalesce(r.confidence, 1.0), mentions: coalesce(r.mentions, 1) } AS row`;

// How many relations an entity has in all, beside the capped list: a degree count, which Neo4j
// answers from the node's own counters without reading the relationships.
export const RELATION_COUNTS = `
UNWIND $ids AS id
MATCH (e:Entity {id: id})
RETURN id AS key, COUNT { (e)-[:RELATES_TO]-() } AS row`;

export const MEMORIES_BY_ENTITY = `
UNWIND $ids AS id
CALL (id) {
  MATCH (m:Memory)-[:MENTIONS]->(e:Entity {id: id})
  WHERE m.deletedAt IS NULL AND m.namespace = e.namespace
  RETURN m ORDER BY m.createdAt DESC, m.id DESC LIMIT toInteger($limit)
}
RETURN id AS key, ${MEMORY_RETURN('m')} AS row`;

export interface Keyed<T> {
  key: string;
  row: T;
}

async function keyed<T>(
  executor: Executor,
  operation: string,
  cypher: string,
  ids: readonly string[],
  extra: Record<string, unknown> = {},
): Promise<Keyed<T>[]> {
  if (ids.length === 0) return [];
  return executor.read<Keyed<T> & Record<string, unknown>>(operation, cypher, { ids, ...extra });
}

export const entitiesByIds = (x: Executor, ids: readonly string[]) => keyed<EntityRecord>(x, 'graph.entities-by-ids', ENTITIES_BY_IDS, ids);
export const entitiesByMemoryIds = (x: Executor, ids: readonly string[]) =>
  keyed<EntityRecord>(x, 'graph.entities-by-memory', ENTITIES_BY_MEMORY, ids, { limit: MAX_ENTITIES_PER_MEMORY });
export const attributesByMemoryIds = (x: Executor, ids: readonly string[]) =>
  keyed<AttributeRecord>(x, 'graph.attributes-by-memory', ATTRIBUTES_BY_MEMORY, ids, { limit: MAX_ATTRIBUTES_PER_MEMORY });
export const historyByMemoryIds = (x: Executor, ids: readonly string[]) =>
  keyed<HistoryRecord>(x, 'graph.history-by-memory', HISTORY_BY_MEMORY, ids, { limit: MAX_HISTORY_PER_MEMORY });
export const aspectsByEntityIds = (x: Executor, ids: readonly string[]) =>
  keyed<AspectRecord>(x, 'graph.aspects-by-entity', ASPECTS_BY_ENTITY, ids, { limit: MAX_ASPECTS_PER_ENTITY });
export const aspectsByIds = (x: Executor, ids: readonly string[]) => keyed<AspectRecord>(x, 'graph.aspects-by-ids', ASPECTS_BY_IDS, ids);
export const attributesByAspectIds = (x: Executor, ids: readonly string[]) =>
  keyed<AttributeRecord>(x, 'graph.attributes-by-aspect', ATTRIBUTES_BY_ASPECT, ids, { limit: MAX_ATTRIBUTES_PER_ASPECT });
export const attributesByIds = (x: Executor, ids: readonly string[]) =>
  keyed<AttributeRecord>(x, 'graph.attributes-by-ids', ATTRIBUTES_BY_IDS, ids);
export const relationsByEntityIds = (x: Executor, ids: readonly string[], limit = MAX_RELATIONS_PER_ENTITY) =>
  keyed<RelationRecord>(x, 'graph.relations-by-entity', RELATIONS_BY_ENTITY, ids, { limit });
export const relationCountsByEntityIds = (x: Executor, ids: readonly string[]) =>
  keyed<number>(x, 'graph.relation-counts', RELATION_COUNTS, ids);
export const memoriesByEntityIds = (x: Executor, ids: readonly string[], limit: number) =>
  keyed<MemoryRecord>(x, 'graph.memories-by-entity', MEMORIES_BY_ENTITY, ids, { limit });

export const ENTITY_BY_NAME = `
MATCH (e:Entity {namespace: $namespace, canonicalName: $canonicalName})
RETURN ${ENTITY_RETURN('e')} AS entity`;

// An alias (a name the text gave it, "billing service" for Kestrel, or a merged entity's name)
// through the alias index, then compared exactly; the most-mentioned entity wins when two share one.
export const ENTITY_BY_ALIAS = `
CALL db.index.fulltext.queryNodes('entity_alias', $query, {limit: toInteger($fetch)}) YIELD node
WITH node AS e
WHERE e.namespace = $namespace AND any(a IN e.aliases WHERE toLower(a) = $canonicalName)
RETURN ${ENTITY_RETURN('e')} AS entity
ORDER BY coalesce(e.mentions, 0) DESC, e.canonicalName
LIMIT 1`;
/** Alias-index candidates read before the exact comparison. */
const ALIAS_FETCH = 50;

/** An entity by its canonical name, else by one of its aliases. */
export async function entityByName(executor: Executor, namespace: string, name: string): Promise<EntityRecord | null> {
  // Cleaned like the stored names it is compared with (src/text/well-formed.ts).
  const canonicalName = cleanText(name).trim().toLowerCase().replace(/\s+/g, ' ');
  const [row] = await executor.read<{ entity: EntityRecord }>('graph.entity-by-name', ENTITY_BY_NAME, { namespace, canonicalName });
  if (row) return row.entity;
  const query = aliasQuery(namespaceToken(namespace), canonicalName);
  if (!query) return null;
  const [alias] = await executor.read<{ entity: EntityRecord }>('graph.entity-by-alias', ENTITY_BY_ALIAS, {
    namespace,
    canonicalName,
    query,
    fetch: ALIAS_FETCH,
  });
  return alias?.entity ?? null;
}

/** `namespaceToken:<t>^0 AND aliases:(+w …)` over the name's words; null when it has none. */
export function aliasQuery(token: string, canonicalName: string): string | null {
  const words = canonicalName
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean)
    .slice(0, 12);
  return words.length === 0 ? null : `namespaceToken:${token}^0 AND aliases:(${words.map((w) => `+${escapeLuceneTerm(w)}`).join(' ')})`;
}

// The newest first, cut at the limit, then returned oldest first. Ties in validFrom (one
// millisecond) put the superseded before the active and the earlier-retired first: linear in the
// aspect's attributes, never a walk along SUPERSEDES chains (which updateMemory can multiply).
export const ATTRIBUTE_HISTORY = `
MATCH (e:Entity {id: $entityId})-[:HAS_ASPECT]->(asp:Aspect {canonicalName: $aspect})
WHERE asp.namespace = e.namespace
CALL (asp) {
  MATCH (asp)-[:HAS_ATTRIBUTE]->(attr:Attribute)
  WITH attr, attr.status = 'active' AS active, coalesce(attr.validTo, '') AS retiredAt
  ORDER BY attr.validFrom DESC, active DESC, retiredAt DESC, attr.id DESC
  LIMIT toInteger($limit)
  RETURN attr, active, retiredAt
}
RETURN ${ATTRIBUTE_RETURN('attr', 'asp')} AS attribute
ORDER BY attr.validFrom, active, retiredAt, attr.id`;

/**
 * The attributes of an entity's aspect (by name, matched on its canonical form), superseded ones
 * included: the newest `limit` (at most MAX_ATTRIBUTE_HISTORY), oldest first.
 */
export async function attributeHistory(
  executor: Executor,
  entityId: string,
  aspect: string,
  limit = MAX_ATTRIBUTE_HISTORY,
): Promise<AttributeRecord[]> {
  const canonical = aspect.trim().toLowerCase().replace(/\s+/g, ' ');
  const rows = await executor.read<{ attribute: AttributeRecord }>('graph.attribute-history', ATTRIBUTE_HISTORY, {
    entityId,
    aspect: canonical,
    limit: Math.max(1, Math.min(limit, MAX_ATTRIBUTE_HISTORY)),
  });
  return rows.map((r) => r.attribute);
}
