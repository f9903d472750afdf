import { randomUUID } from 'node:crypto';
import type { Executor } from '../db/index.js';
import { applyClassification, classifyJobEntityId, unclassifiedAttributes } from '../db/index.js';
import type { LlmProvider } from '../llm/index.js';
import { redactStored } from '../redaction/index.js';
import { ATTRIBUTE_IMPORTANCE, CONSTRAINT_IMPORTANCE } from './classify-fact.js';
import { HISTORY_EVENT, historyId, PIPELINE_ACTOR } from './pipeline-provenance.js';
import { classifyEntityFacts, type AspectAssignment } from './structural-classify.js';

/**
 * A `classify` job: the attributes the deep path wrote for one entity, still placed by the rules
 * (src/deep/classify-fact.ts: aspect by fact type), sorted into aspects by the LLM in batches of
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

export async function classifyJobEntity(deps: ClassifyDeps, jobId: string): Promise<ClassifyJobResult> {
  const entityId = await classifyJobEntityId(deps.executor, jobId);
  const result: ClassifyJobResult = {
    entityId,
    calls: 0,
    classified: 0,
    keptByRules: 0,
    newAspects: [],
    entityType: null,
    warnings: [],
  };
  if (!entityId) return result;
  for (let batch = 0; batch < MAX_CLASSIFY_BATCHES; batch += 1) {
    const done = await classifyBatch(deps, entityId, result);
    if (done) break;
  }
  return result;
}

/** One model call and one transaction; true when nothing was left to classify. */
async function classifyBatch(deps: ClassifyDeps, entityId: string, result: ClassifyJobResult): Promise<boolean> {
  const { executor, provider, settings } = deps;
  const entity = await unclassifiedAttributes(executor, { entityId, actor: PIPELINE_ACTOR, limit: settings.batchSize });
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
  await applyClassification(executor, {
    entityId,
    moves,
    kept,
    entityType: answer.entityType,
    now,
    event: {
      id: eventId,
      event: HISTORY_EVENT.classify,
      about: { entityId },
      actor: PIPELINE_ACTOR,
      model: provider.model,
      outcome: moves.length ? 'classified' : 'kept_rules',
      details: {
        assignments: moves.map((m) => ({ attributeId: m.attributeId, aspect: m.aspect, kind: m.kind })),
        keptByRules: kept,
        entityType: answer.entityType,
        previousType: entity.type,
        warnings: answer.warnings,
      },
    },
  });
  result.classified += moves.length;
  result.keptByRules += kept.length;
  result.newAspects.push(...newAspects.filter((a) => !result.newAspects.includes(a)));
  result.entityType ??= answer.entityType;
  return entity.attributes.length < settings.batchSize;
}
