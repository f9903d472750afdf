import { randomUUID } from 'node:crypto';
import type { Executor } from '../db/index.js';
import { queueClassifyJobs, requireSourceUnchanged } from '../db/index.js';
import { HISTORY_EVENT, historyId, PIPELINE_ACTOR, recordHistory, type HistoryEventInput } from './history.js';
import type { Supersession } from './supersession.js';
import type { AttributeInsert } from '../db/index.js';

/**
 * Knowledge-graph persistence (entities, aspects, attributes, relations), in its own transaction after the
 * facts are written: entities, relations, mentions, attributes and supersessions. The caller
 * treats a failure here as non-fatal.
 */

export interface GraphEntity {
  id: string;
  name: string;
  canonicalName: string;
  mentionText: string;
  confidence: number;
}

export interface GraphRelation {
  source: string;
  target: string;
  type: string;
  confidence: number;
}

/** An attribute as the inline linker writes it, plus the extraction's confidence. */
export interface GraphAttribute extends AttributeInsert {
  confidence: number;
}

/**
 * UPDATE/DELETE in full mode: the target memory is marked superseded (it leaves default recall and
 * stays queryable, with `SUPERSEDES` from the fact that replaced it), and so are its active attributes.
 */
export interface TargetRetirement {
  targetMemoryId: string;
  action: 'UPDATE' | 'DELETE';
  reason: string;
  newAttributeIds: string[];
  /** The fact memory that replaces the target (UPDATE); null for DELETE. */
  newMemoryId: string | null;
}

export interface GraphPlan {
  namespace: string;
  sourceMemoryId: string;
  entities: GraphEntity[];
  relations: GraphRelation[];
  attributes: GraphAttribute[];
  supersessions: Supersession[];
  retirements: TargetRetirement[];
  /** `classify` jobs for the entities that got attributes (LLM classification); ids made before. */
  classifyJobs?: ClassifyJobInsert[];
}

export interface ClassifyJobInsert {
  id: string;
  entityCanonicalName: string;
  maxAttempts: number;
}

export interface GraphWriteResult {
  attributesCreated: string[];
  superseded: Array<{ newId: string; oldId: string }>;
  retired: number;
  retiredMemories: string[];
}

// A memory counts once per entity: mentions move only when this memory's MENTIONS link is new,
// so re-processing a memory does not inflate them.
const MERGE_ENTITIES = `
MATCH (mem:Memory {id: $sourceMemoryId})
UNWIND $entities AS e
MERGE (n:Entity {namespace: $namespace, canonicalName: e.canonicalName})
  ON CREATE SET n.id = e.id, n.name = e.name, n.type = 'extracted', n.mentions = 0, n.createdAt = $now,
                n.namespaceToken = mem.namespaceToken
MERGE (mem)-[r:MENTIONS]->(n)
  ON CREATE SET r.mentionText = e.mentionText, r.confidence = e.confidence,
                n.mentions = coalesce(n.mentions, 0) + 1, n.updatedAt = $now`;

// `sources` lists the memory behind each counted mention (once per count), so forgetting the
// memory takes back exactly what it added (src/db/queries/retire-derived.ts).
const MERGE_RELATIONS = `
UNWIND $relations AS r
MATCH (s:Entity {namespace: $namespace, canonicalName: r.source})
MATCH (o:Entity {namespace: $namespace, canonicalName: r.target})
MERGE (s)-[rel:RELATES_TO {type: r.type}]->(o)
  ON CREATE SET rel.strength = 1.0, rel.confidence = r.confidence, rel.mentions = 1, rel.createdAt = $now,
                rel.sources = [$sourceMemoryId]
  ON MATCH SET rel.confidence = CASE WHEN coalesce(rel.lastWrite, '') = $writeId THEN rel.confidence
                 ELSE (coalesce(rel.confidence, 0.0) * coalesce(rel.mentions, 0) + r.confidence) / (coalesce(rel.mentions, 0) + 1) END,
               rel.sources = CASE WHEN coalesce(rel.lastWrite, '') = $writeId THEN rel.sources ELSE coalesce(rel.sources, []) + $sourceMemoryId END,
               rel.mentions = coalesce(rel.mentions, 0) + CASE WHEN coalesce(rel.lastWrite, '') = $writeId THEN 0 ELSE 1 END
SET rel.updatedAt = $now, rel.lastWrite = $writeId`;

const CREATE_ATTRIBUTES = `
UNWIND $attributes AS a
MATCH (e:Entity {namespace: $namespace, canonicalName: a.entityCanonicalName})
MATCH (src:Memory {id: a.memoryId})
MERGE (asp:Aspect {entityId: e.id, canonicalName: a.aspectCanonicalName})
  ON CREATE SET asp.id = a.aspectId, asp.name = a.aspect, asp.weight = 1.0, asp.namespace = $namespace, asp.createdAt = $now
MERGE (e)-[:HAS_ASPECT]->(asp)
WITH a, asp, src
WHERE NOT EXISTS { (asp)-[:HAS_ATTRIBUTE]->(other:Attribute {status: 'active', content: a.content}) WHERE other.id <> a.id }
MERGE (attr:Attribute {id: a.id})
  ON CREATE SET attr.namespace = $namespace, attr.content = a.content, attr.name = left(a.content, 60), attr.kind = a.kind,
    attr.importance = a.importance, attr.confidence = a.confidence, attr.status = 'active', attr.validFrom = $now,
    attr.createdBy = $actor
MERGE (asp)-[:HAS_ATTRIBUTE]->(attr)
MERGE (attr)-[:FROM]->(src)
RETURN attr.id AS id`;

const SUPERSEDE = `
UNWIND $supersessions AS s
MATCH (newer:Attribute {id: s.newId, status: 'active'})
MATCH (old:Attribute {id: s.oldId, status: 'active'})
SET old.status = 'superseded', old.validTo = $now
MERGE (newer)-[r:SUPERSEDES]->(old)
  ON CREATE SET r.method = s.method, r.reason = s.detail, r.at = $now
RETURN s.newId AS newId, s.oldId AS oldId`;

const RETIRE_TARGETS = `
UNWIND $retirements AS r
MATCH (attr:Attribute {status: 'active'})-[:FROM]->(:Memory {id: r.targetMemoryId})
WHERE NOT attr.id IN r.newAttributeIds
SET attr.status = 'superseded', attr.validTo = $now
WITH r, attr
CALL (r, attr) {
  UNWIND r.newAttributeIds AS newId
  MATCH (newer:Attribute {id: newId})
  MERGE (newer)-[s:SUPERSEDES]->(attr)
    ON CREATE SET s.method = toLower(r.action), s.reason = r.reason, s.at = $now
}
RETURN r.targetMemoryId AS targetMemoryId, collect(attr.id) AS attributeIds`;

// The fact that replaces a memory never supersedes itself or the memory it was extracted from.
const RETIRE_TARGET_MEMORIES = `
UNWIND $retirements AS r
MATCH (old:Memory {id: r.targetMemoryId})
WHERE old.deletedAt IS NULL AND old.supersededAt IS NULL AND old.id <> $sourceMemoryId AND old.id <> coalesce(r.newMemoryId, '')
SET old.supersededAt = $now, old.validTo = $now, old.supersededBy = r.newMemoryId, old.updatedAt = $now
WITH r, old
CALL (r, old) {
  MATCH (newer:Memory {id: r.newMemoryId})
  MERGE (newer)-[s:SUPERSEDES]->(old)
    ON CREATE SET s.method = toLower(r.action), s.reason = r.reason, s.at = $now
}
RETURN old.id AS id`;

export interface GraphWriteContext {
  now: string;
  model: string;
  sourceContentHash: string;
  /**
   * The audit of what this transaction applies, built from its result and recorded in it, so a
   * crash can never leave the writes without their events. Ids must be made before the call.
   */
  audit?: (result: GraphWriteResult) => HistoryEventInput[];
}

/**
 * Throws ConflictError (nothing written) when the source memory changed since `source` was read.
 * Ids (and the relation counters' write id) are made before the transaction: a re-run of it
 * counts nothing twice.
 */
export async function persistGraph(executor: Executor, plan: GraphPlan, context: GraphWriteContext): Promise<GraphWriteResult> {
  const base = { namespace: plan.namespace, now: context.now, writeId: randomUUID() };
  const eventIds = new Map(
    [...plan.supersessions.map((s) => `${s.newId}>${s.oldId}`), ...plan.retirements.map((_, i) => `retire>${i}`)].map((key) => [
      key,
      historyId(),
    ]),
  );
  return executor.writeTx('extraction.graph', async (tx) => {
    await requireSourceUnchanged(tx, { memoryId: plan.sourceMemoryId, contentHash: context.sourceContentHash });
    if (plan.entities.length) await tx.run(MERGE_ENTITIES, { ...base, sourceMemoryId: plan.sourceMemoryId, entities: plan.entities });
    if (plan.relations.length) await tx.run(MERGE_RELATIONS, { ...base, sourceMemoryId: plan.sourceMemoryId, relations: plan.relations });
    const created = plan.attributes.length
      ? await tx.run<{ id: string }>(CREATE_ATTRIBUTES, { ...base, attributes: plan.attributes, actor: PIPELINE_ACTOR })
      : [];
    const superseded = plan.supersessions.length
      ? await tx.run<{ newId: string; oldId: string }>(SUPERSEDE, { ...base, supersessions: plan.supersessions })
      : [];
    const retiredAttributes = plan.retirements.length
      ? await tx.run<{ targetMemoryId: string; attributeIds: string[] }>(RETIRE_TARGETS, { ...base, retirements: plan.retirements })
      : [];
    const classify = (plan.classifyJobs ?? []).filter((j) =>
      created.some((c) => plan.attributes.find((a) => a.id === c.id)?.entityCanonicalName === j.entityCanonicalName),
    );
    if (classify.length) await queueClassifyJobs(tx, { namespace: plan.namespace, now: context.now, jobs: classify });
    const retiredMemories = plan.retirements.length
      ? (
          await tx.run<{ id: string }>(RETIRE_TARGET_MEMORIES, {
            ...base,
            sourceMemoryId: plan.sourceMemoryId,
            retirements: plan.retirements,
          })
        ).map((r) => r.id)
      : [];
    const attributesOf = new Map(retiredAttributes.map((r) => [r.targetMemoryId, r.attributeIds]));

    // Each supersession is audited in the transaction that makes it.
    const byPair = new Map(plan.supersessions.map((s) => [`${s.newId}>${s.oldId}`, s]));
    const events: HistoryEventInput[] = superseded.map(({ newId, oldId }) => {
      const s = byPair.get(`${newId}>${oldId}`)!;
      return {
        id: eventIds.get(`${newId}>${oldId}`)!,
        memoryId: plan.sourceMemoryId,
        event: HISTORY_EVENT.superseded,
        outcome: 'superseded',
        reason: s.detail,
        confidence: null,
        details: { newAttributeId: newId, oldAttributeId: oldId, oldContent: s.oldContent, method: s.method },
      };
    });
    for (const [i, r] of plan.retirements.entries()) {
      events.push({
        id: eventIds.get(`retire>${i}`)!,
        memoryId: r.targetMemoryId,
        event: HISTORY_EVENT.targetRetired,
        outcome: r.action.toLowerCase(),
        reason: r.reason,
        confidence: null,
        details: {
          sourceMemoryId: plan.sourceMemoryId,
          newMemoryId: r.newMemoryId,
          newAttributeIds: r.newAttributeIds,
          retiredAttributeIds: attributesOf.get(r.targetMemoryId) ?? [],
          memorySuperseded: retiredMemories.includes(r.targetMemoryId),
        },
      });
    }
    const retired = retiredAttributes.reduce((n, r) => n + r.attributeIds.length, 0);
    const result: GraphWriteResult = { attributesCreated: created.map((c) => c.id), superseded, retired, retiredMemories };
    await recordHistory(tx, [...events, ...(context.audit?.(result) ?? [])], context);
    return result;
  });
}
