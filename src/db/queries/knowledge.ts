import type { Executor, TxRunner } from '../executor.js';
import { recordEvents, type HistoryEventName } from '../history.js';
import { ENTITY_RETURN, type EntityRecord } from '../records.js';
import { CO_MENTION_MAX_MEMORY_IDS } from './remember-write.js';

/**
 * Structured writes of the knowledge graph (createEntity, relate, mergeEntities) and their
 * audit. Every write carries ids made before the transaction and MERGEs on them or on the
 * unique (namespace, canonicalName) pair, so a re-run transaction changes nothing twice.
 * Entity-level audit events hang off the entity they describe: (:HistoryEvent)-[:ABOUT]->(:Entity).
 */

export const KNOWLEDGE_EVENT = {
  entityCreated: 'entity.created',
  entityUpdated: 'entity.updated',
  merged: 'entity.merged',
  factAsserted: 'fact.asserted',
} as const satisfies Record<string, HistoryEventName>;

export interface EntityWrite {
  id: string;
  eventId: string;
  namespace: string;
  namespaceToken: string;
  name: string;
  canonicalName: string;
  type: string;
  description: string | null;
  actor: string;
}

// An explicit type or description wins over what the linker guessed; a retry (same event id) is a no-op.
export const MERGE_ENTITY = `
MERGE (e:Entity {namespace: $namespace, canonicalName: $canonicalName})
  ON CREATE SET e.id = $id, e.name = $name, e.type = $type, e.description = $description, e.mentions = 0,
                e.createdAt = $now, e.updatedAt = $now, e.namespaceToken = $namespaceToken
WITH e, e.id = $id AS created
WITH e, created, EXISTS { (:HistoryEvent {id: $eventId})-[:ABOUT]->(e) } AS replay
FOREACH (_ IN CASE WHEN NOT created AND NOT replay THEN [1] ELSE [] END |
  SET e.type = $type, e.description = coalesce($description, e.description), e.updatedAt = $now)
RETURN created, ${ENTITY_RETURN('e')} AS entity, e.description AS description`;

/** The entity and its `entity.created` or `entity.updated` event, in one transaction. */
export async function mergeEntity(
  executor: Executor,
  w: EntityWrite,
): Promise<{ created: boolean; entity: EntityRecord; description: string | null }> {
  const now = new Date().toISOString();
  return executor.writeTx('knowledge.create-entity', async (tx) => {
    const [row] = await tx.run<{ created: boolean; entity: EntityRecord; description: string | null }>(MERGE_ENTITY, { ...w, now });
    const event = row!.created ? KNOWLEDGE_EVENT.entityCreated : KNOWLEDGE_EVENT.entityUpdated;
    await recordEvents(
      tx,
      [
        {
          id: w.eventId,
          event,
          name: `${event} ${row!.entity.name}`,
          about: { entityId: row!.entity.id },
          actor: w.actor,
          outcome: event,
          details: { type: w.type, description: w.description },
        },
      ],
      now,
    );
    return row!;
  });
}

export const ENTITY_BY_CANONICAL = `
MATCH (e:Entity {namespace: $namespace, canonicalName: $canonicalName})
RETURN ${ENTITY_RETURN('e')} AS entity, e.description AS description`;

export async function entityByCanonicalName(
  executor: Executor,
  namespace: string,
  canonicalName: string,
): Promise<{ entity: EntityRecord; description: string | null } | null> {
  const [row] = await executor.read<{ entity: EntityRecord; description: string | null }>('knowledge.entity-by-name', ENTITY_BY_CANONICAL, {
    namespace,
    canonicalName,
  });
  return row ?? null;
}

export interface RelationWrite {
  id: string;
  namespace: string;
  source: string;
  target: string;
  type: string;
  confidence: number;
  actor: string;
}

export interface RelationRow {
  id: string;
  sourceId: string;
  targetId: string;
  type: string;
  strength: number;
  confidence: number;
  mentions: number;
  created: boolean;
}

// The relation type is a property (never a relationship type built from input). `lastWriteId`
// marks the call that last counted, so a retried transaction does not count again.
export const RELATE = `
MATCH (s:Entity {namespace: $namespace, canonicalName: $source})
MATCH (o:Entity {namespace: $namespace, canonicalName: $target})
MERGE (s)-[rel:RELATES_TO {type: $type}]->(o)
  ON CREATE SET rel.id = $id, rel.strength = 1.0, rel.confidence = $confidence, rel.mentions = 1,
                rel.createdAt = $now, rel.updatedAt = $now, rel.lastWriteId = $id, rel.createdBy = $actor
WITH s, o, rel, rel.lastWriteId = $id AS counted
FOREACH (_ IN CASE WHEN counted THEN [] ELSE [1] END |
  SET rel.id = coalesce(rel.id, $id), rel.confidence = $confidence, rel.mentions = coalesce(rel.mentions, 0) + 1,
      rel.updatedAt = $now, rel.lastWriteId = $id)
RETURN rel.id AS id, s.id AS sourceId, o.id AS targetId, rel.type AS type, coalesce(rel.strength, 1.0) AS strength,
       rel.confidence AS confidence, rel.mentions AS mentions, rel.createdAt = $now AND rel.id = $id AS created`;

/** Null when either entity is missing from the namespace. */
export async function relateEntities(executor: Executor, w: RelationWrite): Promise<RelationRow | null> {
  const [row] = await executor.write<RelationRow & Record<string, unknown>>('knowledge.relate', RELATE, {
    ...w,
    now: new Date().toISOString(),
  });
  return row ?? null;
}

export interface MergeWrite {
  namespace: string;
  keepId: string;
  mergeId: string;
  eventId: string;
  actor: string;
}

export interface MergeCounts {
  mentions: number;
  aspects: number;
  attributes: number;
  relations: number;
}

// Mentions: the kept entity gains a link (and a count) only where the memory did not mention it yet.
export const MOVE_MENTIONS = `
MATCH (keep:Entity {id: $keepId, namespace: $namespace}), (gone:Entity {id: $mergeId, namespace: $namespace})
MATCH (m:Memory)-[r:MENTIONS]->(gone)
MERGE (m)-[k:MENTIONS]->(keep)
  ON CREATE SET k.mentionText = r.mentionText, k.confidence = r.confidence, keep.mentions = coalesce(keep.mentions, 0) + 1
DELETE r
RETURN count(*) AS moved`;

// Same-named aspects fold into the kept one (their attributes move); the others change owner.
export const FOLD_ASPECTS = `
MATCH (keep:Entity {id: $keepId, namespace: $namespace})-[:HAS_ASPECT]->(same:Aspect)
MATCH (:Entity {id: $mergeId, namespace: $namespace})-[:HAS_ASPECT]->(asp:Aspect {canonicalName: same.canonicalName})
OPTIONAL MATCH (asp)-[r:HAS_ATTRIBUTE]->(attr:Attribute)
FOREACH (_ IN CASE WHEN attr IS NULL THEN [] ELSE [1] END | MERGE (same)-[:HAS_ATTRIBUTE]->(attr))
DELETE r
WITH DISTINCT asp
DETACH DELETE asp
RETURN count(*) AS aspects`;

export const ADOPT_ASPECTS = `
MATCH (keep:Entity {id: $keepId, namespace: $namespace})
MATCH (:Entity {id: $mergeId, namespace: $namespace})-[ha:HAS_ASPECT]->(asp:Aspect)
DELETE ha
SET asp.entityId = keep.id
MERGE (keep)-[:HAS_ASPECT]->(asp)
RETURN count(*) AS aspects`;

export const COUNT_ATTRIBUTES = `
MATCH (:Entity {id: $mergeId, namespace: $namespace})-[:HAS_ASPECT]->(:Aspect)-[:HAS_ATTRIBUTE]->(attr:Attribute)
RETURN count(attr) AS attributes`;

// Where the kept entity already has the same relation, the moved one's counts add up, and so do
// the lists of memories behind them (`sources` of extracted relations, `memoryIds` of co-mention
// edges): forgetting one of those memories later takes back what it contributed.
const ADD_COUNTS = `n.mentions = coalesce(n.mentions, 0) + coalesce(r.mentions, 1),
                 n.confidence = CASE WHEN coalesce(r.confidence, 0.0) > coalesce(n.confidence, 0.0) THEN r.confidence ELSE n.confidence END,
                 n.sources = CASE WHEN r.sources IS NULL THEN n.sources ELSE coalesce(n.sources, []) + r.sources END,
                 n.memoryIds = CASE WHEN r.memoryIds IS NULL THEN n.memoryIds
                   ELSE (coalesce(n.memoryIds, []) + [x IN r.memoryIds WHERE NOT x IN coalesce(n.memoryIds, [])])[..$maxMemoryIds] END`;

// A memory keeps the co-mention edges it counted as entity-id pairs (remember-write.ts); the
// merged entity's id in them becomes the kept one's, so forget still finds the moved edge. A pair
// of the two merged entities named the edge between them, which the merge drops. A memory that
// named both entities and a third counted two edges that become one: it keeps the pair once, and
// the edge gives back the extra mention (DROP_DOUBLE_COUNTS, once the edges are joined).
export const REPOINT_CO_MENTION_PAIRS = `
MATCH (keep:Entity {id: $keepId, namespace: $namespace}), (gone:Entity {id: $mergeId, namespace: $namespace})
MATCH (m:Memory)-[:MENTIONS]->(gone)
WHERE any(key IN coalesce(m.coMentionPairs, []) WHERE key STARTS WITH gone.id + '|' OR key ENDS WITH '|' + gone.id)
WITH m, keep.id AS keepId, gone.id AS goneId, [key IN m.coMentionPairs | split(key, '|')] AS pairs
WITH m, [p IN pairs | [CASE p[0] WHEN goneId THEN keepId ELSE p[0] END, CASE p[1] WHEN goneId THEN keepId ELSE p[1] END]] AS moved
WITH m, [p IN moved WHERE p[0] <> p[1] | p[0] + '|' + p[1]] AS keys
WITH m, keys, reduce(kept = [], key IN keys | CASE WHEN key IN kept THEN kept ELSE kept + key END) AS distinctKeys
SET m.coMentionPairs = distinctKeys
WITH keys, distinctKeys
UNWIND distinctKeys AS key
WITH key, size([k IN keys WHERE k = key]) - 1 AS extra
WHERE extra > 0
RETURN key, extra`;

export const DROP_DOUBLE_COUNTS = `
UNWIND $doubled AS d
WITH d, split(d.key, '|') AS pair
MATCH (:Entity {id: pair[0]})-[r:RELATES_TO {type: 'co_mentioned'}]->(:Entity {id: pair[1]})
SET r.mentions = coalesce(r.mentions, 0) - d.extra
SET r.strength = CASE WHEN r.mentions > 0 THEN toFloat(r.mentions) / (r.mentions + 1) ELSE 0.0 END`;

// Relations are re-pointed to the kept entity; one that would join it to itself is dropped.
export const MOVE_RELATIONS = `
MATCH (keep:Entity {id: $keepId, namespace: $namespace}), (gone:Entity {id: $mergeId, namespace: $namespace})
CALL (keep, gone) {
  MATCH (gone)-[r:RELATES_TO]->(o:Entity)
  WHERE o <> keep AND o <> gone
  MERGE (keep)-[n:RELATES_TO {type: r.type}]->(o)
    ON CREATE SET n = properties(r)
    ON MATCH SET ${ADD_COUNTS}
  RETURN count(r) AS outgoing
}
CALL (keep, gone) {
  MATCH (o:Entity)-[r:RELATES_TO]->(gone)
  WHERE o <> keep AND o <> gone
  MERGE (o)-[n:RELATES_TO {type: r.type}]->(keep)
    ON CREATE SET n = properties(r)
    ON MATCH SET ${ADD_COUNTS}
  RETURN count(r) AS incoming
}
RETURN outgoing + incoming AS relations`;

export const RETIRE_MERGED = `
MATCH (keep:Entity {id: $keepId, namespace: $namespace}), (gone:Entity {id: $mergeId, namespace: $namespace})
SET keep.aliases = [a IN coalesce(keep.aliases, []) WHERE a <> gone.name] + gone.name, keep.updatedAt = $now
WITH keep, gone, gone.name AS goneName
DETACH DELETE gone
RETURN ${ENTITY_RETURN('keep')} AS entity, goneName`;

export const MERGE_REPLAYED = `
MATCH (h:HistoryEvent {id: $eventId})-[:ABOUT]->(keep:Entity {id: $keepId, namespace: $namespace})
RETURN ${ENTITY_RETURN('keep')} AS entity, h.details AS details`;

export interface MergeResult {
  entity: EntityRecord;
  counts: MergeCounts;
}

/** Both entities in one transaction; null when either is missing (and this merge did not already happen). */
export async function mergeEntityInto(executor: Executor, w: MergeWrite): Promise<MergeResult | null> {
  const now = new Date().toISOString();
  return executor.writeTx('knowledge.merge-entities', async (tx) => {
    const replay = await replayed(tx, w);
    if (replay) return replay;
    const params = { namespace: w.namespace, keepId: w.keepId, mergeId: w.mergeId };
    const [attrs] = await tx.run<{ attributes: number }>(COUNT_ATTRIBUTES, params);
    const doubled = await tx.run<{ key: string; extra: number }>(REPOINT_CO_MENTION_PAIRS, params); // while the memories still mention the merged entity
    const [mentions] = await tx.run<{ moved: number }>(MOVE_MENTIONS, params);
    const [folded] = await tx.run<{ aspects: number }>(FOLD_ASPECTS, params);
    const [adopted] = await tx.run<{ aspects: number }>(ADOPT_ASPECTS, params);
    const [relations] = await tx.run<{ relations: number }>(MOVE_RELATIONS, { ...params, maxMemoryIds: CO_MENTION_MAX_MEMORY_IDS });
    if (doubled.length) await tx.run(DROP_DOUBLE_COUNTS, { doubled });
    const counts: MergeCounts = {
      mentions: mentions?.moved ?? 0,
      aspects: (folded?.aspects ?? 0) + (adopted?.aspects ?? 0),
      attributes: attrs?.attributes ?? 0,
      relations: relations?.relations ?? 0,
    };
    const [row] = await tx.run<{ entity: EntityRecord; goneName: string }>(RETIRE_MERGED, { ...params, now });
    if (!row) return null;
    const event = KNOWLEDGE_EVENT.merged;
    await recordEvents(
      tx,
      [
        {
          id: w.eventId,
          event,
          name: `${event} ${row.goneName} into ${row.entity.name}`,
          about: { entityId: row.entity.id },
          mergedEntityId: w.mergeId,
          actor: w.actor,
          outcome: 'merged',
          details: { ...counts },
        },
      ],
      now,
    );
    return { entity: row.entity, counts };
  });
}

async function replayed(tx: TxRunner, w: MergeWrite): Promise<MergeResult | null> {
  const [row] = await tx.run<{ entity: EntityRecord; details: string | null }>(MERGE_REPLAYED, {
    eventId: w.eventId,
    keepId: w.keepId,
    namespace: w.namespace,
  });
  return row ? { entity: row.entity, counts: JSON.parse(row.details ?? '{}') as MergeCounts } : null;
}
