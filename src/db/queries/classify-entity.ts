import type { Executor } from '../executor.js';
import { recordEvents, type HistoryEventWrite } from '../history.js';

/**
 * A `classify` job's statements (src/deep/classify-entity-job.ts asks the model): the entity the job
 * is for, its attributes still placed by the rules, and one batch's moves applied with its audit
 * event in one transaction.
 */

export const JOB_ENTITY = `
MATCH (:Job {id: $jobId})-[:FOR]->(e:Entity)
RETURN e.id AS id`;

export const UNCLASSIFIED = `
MATCH (e:Entity {id: $entityId})
OPTIONAL MATCH (e)-[:HAS_ASPECT]->(asp:Aspect)
WITH e, collect(DISTINCT asp.name) AS aspects
CALL (e) {
  MATCH (e)-[:HAS_ASPECT]->(:Aspect)-[:HAS_ATTRIBUTE]->(a:Attribute {status: 'active', createdBy: $actor})
  WHERE a.classifiedAt IS NULL
  RETURN a ORDER BY a.validFrom, a.id LIMIT toInteger($limit)
}
RETURN e.name AS name, e.type AS type, e.namespace AS namespace, aspects, collect({id: a.id, content: a.content}) AS attributes`;

// Moves each attribute under its aspect (merged on entity + canonical name), sets its kind; the
// attributes of the batch the model left out are marked as kept by the rules.
export const APPLY_CLASSIFICATION = `
MATCH (e:Entity {id: $entityId})
UNWIND $moves AS mv
MATCH (e)-[:HAS_ASPECT]->(:Aspect)-[old:HAS_ATTRIBUTE]->(a:Attribute {id: mv.attributeId})
WHERE a.classifiedAt IS NULL
MERGE (asp:Aspect {entityId: e.id, canonicalName: mv.aspectCanonicalName})
  ON CREATE SET asp.id = mv.aspectId, asp.name = mv.aspect, asp.weight = 1.0, asp.namespace = e.namespace, asp.createdAt = $now,
                asp.createdBy = 'classify'
MERGE (e)-[:HAS_ASPECT]->(asp)
WITH a, asp, old, mv
CALL (a, asp, old) {
  WITH a, asp, old WHERE startNode(old) <> asp
  DELETE old
  MERGE (asp)-[:HAS_ATTRIBUTE]->(a)
}
SET a.kind = mv.kind, a.importance = mv.importance, a.classifiedAt = $now, a.classifiedBy = 'llm'
RETURN count(a) AS moved`;

export const KEEP_RULES = `
MATCH (a:Attribute) WHERE a.id IN $ids AND a.classifiedAt IS NULL
SET a.classifiedAt = $now, a.classifiedBy = 'rules'`;

export const SET_ENTITY_TYPE = `
MATCH (e:Entity {id: $entityId}) WHERE e.type IN ['extracted', 'unknown']
SET e.type = $type, e.updatedAt = $now`;

/** The entity a classify job is for; null when it is gone. */
export async function classifyJobEntityId(executor: Executor, jobId: string): Promise<string | null> {
  const [row] = await executor.read<{ id: string }>('classify.job-entity', JOB_ENTITY, { jobId });
  return row?.id ?? null;
}

export interface UnclassifiedBatch {
  name: string;
  type: string;
  namespace: string;
  aspects: string[];
  attributes: Array<{ id: string; content: string }>;
}

/** The entity with the next `limit` attributes `actor` wrote that nothing has classified yet. */
export async function unclassifiedAttributes(
  executor: Executor,
  p: { entityId: string; actor: string; limit: number },
): Promise<UnclassifiedBatch | null> {
  const [row] = await executor.read<UnclassifiedBatch & Record<string, unknown>>('classify.unclassified', UNCLASSIFIED, p);
  return row ?? null;
}

export interface ClassificationMove {
  attributeId: string;
  aspect: string;
  aspectCanonicalName: string;
  aspectId: string;
  kind: string;
  importance: number;
}

export interface Classification {
  entityId: string;
  moves: ClassificationMove[];
  /** Attributes of the batch the model left out: kept where the rules put them. */
  kept: string[];
  /** Set when the entity's type is still unknown. */
  entityType: string | null;
  /** Its audit event (about the entity), recorded in the same transaction. */
  event: HistoryEventWrite;
  now: string;
}

/** One batch, in one transaction with its audit event. */
export async function applyClassification(executor: Executor, c: Classification): Promise<void> {
  const { entityId, moves, kept, now } = c;
  await executor.writeTx('classify.apply', async (tx) => {
    if (moves.length) await tx.run(APPLY_CLASSIFICATION, { entityId, moves, now });
    if (kept.length) await tx.run(KEEP_RULES, { ids: kept, now });
    if (c.entityType) await tx.run(SET_ENTITY_TYPE, { entityId, type: c.entityType, now });
    await recordEvents(tx, [c.event], now);
  });
}
