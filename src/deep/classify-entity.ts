import { randomUUID } from 'node:crypto';
import type { Executor } from '../db/index.js';
import type { LlmProvider } from '../llm/index.js';
import { redactJsonValue, redactStored } from '../redaction/index.js';
import { ATTRIBUTE_IMPORTANCE, CONSTRAINT_IMPORTANCE } from './classify.js';
import { HISTORY_EVENT, historyId, PIPELINE_ACTOR } from './history.js';
import { classifyEntityFacts, type AspectAssignment } from './structural-classify.js';

/**
 * A `classify` job: the attributes the deep path wrote for one entity, still placed by the rules
 * (src/deep/classify.ts: aspect by fact type), sorted into aspects by the LLM in batches of
 * `batchSize`, one call per batch. Each batch is applied in one transaction with its audit event:
 * aspects merged on (entity, canonical name), attributes moved and their kind set, the entity's
 * type set when it was unknown. Attributes the model left out keep the rules' placement.
 */

export interface ClassifyDeps {
  executor: Executor;
  provider: LlmProvider;
  settings: { llmTimeoutMs: number; batchSize: number };
}

export interface ClassifyJobResult {
  entityId: string | null;
  calls: number;
  classified: number;
  keptByRules: number;
  newAspects: string[];
  entityType: string | null;
  warnings: string[];
}

/** At most this many batches per job; the rest waits for the entity's next job. */
export const MAX_CLASSIFY_BATCHES = 5;

const JOB_ENTITY = `
MATCH (:Job {id: $jobId})-[:FOR]->(e:Entity)
RETURN e.id AS id`;

const UNCLASSIFIED = `
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
const APPLY = `
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

const KEEP_RULES = `
MATCH (a:Attribute) WHERE a.id IN $ids AND a.classifiedAt IS NULL
SET a.classifiedAt = $now, a.classifiedBy = 'rules'`;

const SET_TYPE = `
MATCH (e:Entity {id: $entityId}) WHERE e.type IN ['extracted', 'unknown']
SET e.type = $type, e.updatedAt = $now`;

const RECORD_EVENT = `
MATCH (e:Entity {id: $entityId})
MERGE (h:HistoryEvent {id: $eventId})
  ON CREATE SET h.namespace = e.namespace, h.event = $event, h.name = $event, h.entityId = e.id, h.actor = $actor,
    h.model = $model, h.outcome = $outcome, h.at = $now, h.details = $details
MERGE (h)-[:ABOUT]->(e)`;

export async function classifyJobEntity(deps: ClassifyDeps, jobId: string): Promise<ClassifyJobResult> {
  const [row] = await deps.executor.read<{ id: string }>('classify.job-entity', JOB_ENTITY, { jobId });
  const result: ClassifyJobResult = {
    entityId: row?.id ?? null,
    calls: 0,
    classified: 0,
    keptByRules: 0,
    newAspects: [],
    entityType: null,
    warnings: [],
  };
  if (!row) return result;
  for (let batch = 0; batch < MAX_CLASSIFY_BATCHES; batch += 1) {
    const done = await classifyBatch(deps, row.id, result);
    if (done) break;
  }
  return result;
}

/** One model call and one transaction; true when nothing was left to classify. */
async function classifyBatch(deps: ClassifyDeps, entityId: string, result: ClassifyJobResult): Promise<boolean> {
  const { executor, provider, settings } = deps;
  const [entity] = await executor.read<{
    name: string;
    type: string;
    namespace: string;
    aspects: string[];
    attributes: Array<{ id: string; content: string }>;
  }>('classify.unclassified', UNCLASSIFIED, { entityId, actor: PIPELINE_ACTOR, limit: settings.batchSize });
  if (!entity || entity.attributes.length === 0) return true;

  const answer = await classifyEntityFacts(
    provider,
    { entityName: entity.name, entityType: entity.type, existingAspects: entity.aspects, attributes: entity.attributes },
    { timeoutMs: settings.llmTimeoutMs },
  );
  result.calls += 1;
  result.warnings.push(...answer.warnings);
  const moves = answer.assignments.map((a: AspectAssignment) => ({
    attributeId: entity.attributes[a.i]!.id,
    aspect: redactStored(a.aspect),
    aspectCanonicalName: redactStored(a.aspectCanonicalName),
    aspectId: randomUUID(),
    kind: a.kind,
    importance: a.kind === 'constraint' ? CONSTRAINT_IMPORTANCE : ATTRIBUTE_IMPORTANCE,
  }));
  const assigned = new Set(moves.map((m) => m.attributeId));
  const kept = entity.attributes.filter((a) => !assigned.has(a.id)).map((a) => a.id);
  const newAspects = answer.assignments.filter((a) => a.isNew).map((a) => a.aspect);
  const eventId = historyId();
  const now = new Date().toISOString();
  await executor.writeTx('classify.apply', async (tx) => {
    if (moves.length) await tx.run(APPLY, { entityId, moves, now });
    if (kept.length) await tx.run(KEEP_RULES, { ids: kept, now });
    if (answer.entityType) await tx.run(SET_TYPE, { entityId, type: answer.entityType, now });
    await tx.run(RECORD_EVENT, {
      entityId,
      eventId,
      event: HISTORY_EVENT.classify,
      actor: PIPELINE_ACTOR,
      model: provider.model,
      outcome: moves.length ? 'classified' : 'kept_rules',
      now,
      details: JSON.stringify(
        redactJsonValue({
          assignments: moves.map((m) => ({ attributeId: m.attributeId, aspect: m.aspect, kind: m.kind })),
          keptByRules: kept,
          entityType: answer.entityType,
          previousType: entity.type,
          warnings: answer.warnings,
        }),
      ),
    });
  });
  result.classified += moves.length;
  result.keptByRules += kept.length;
  result.newAspects.push(...newAspects.filter((a) => !result.newAspects.includes(a)));
  result.entityType ??= answer.entityType;
  return entity.attributes.length < settings.batchSize;
}
