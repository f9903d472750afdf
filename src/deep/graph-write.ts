import { randomUUID } from 'node:crypto';
import type { Executor } from '../db/index.js';
import { queueClassifyJobs, requireSourceUnchanged } from '../db/index.js';
import { HISTORY_EVENT, historyId, PIPELINE_ACTOR, recordHistory, type HistoryEventInput } from './pipeline-provenance.js';
import type { Supersession } from './supersession.js';
import type { ExtractedAttribute, ExtractedEntity, ExtractedRelation } from '../db/index.js';
import {
  createExtractedAttributes,
  mergeExtractedEntities,
  mergeExtractedRelations,
  retireTargetAttributes,
  retireTargetMemories,
  supersedeAttributes,
} from '../db/index.js';

/**
 * Knowledge-graph persistence (entities, aspects, attributes, relations), in its own transaction after the
 * facts are written: entities, relations, mentions, attributes and supersessions. The caller
 * treats a failure here as non-fatal.
 */

export type GraphEntity = ExtractedEntity;

export type GraphRelation = ExtractedRelation;

/** An attribute as the inline linker writes it, plus the extraction's confidence. */
export type GraphAttribute = ExtractedAttribute;

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
    if (plan.entities.length) await mergeExtractedEntities(tx, { ...base, sourceMemoryId: plan.sourceMemoryId, entities: plan.entities });
    if (plan.relations.length)
      await mergeExtractedRelations(tx, { ...base, sourceMemoryId: plan.sourceMemoryId, relations: plan.relations });
    const created = plan.attributes.length
      ? await createExtractedAttributes(tx, { ...base, attributes: plan.attributes, actor: PIPELINE_ACTOR })
      : [];
    const superseded = plan.supersessions.length ? await supersedeAttributes(tx, { ...base, supersessions: plan.supersessions }) : [];
    const retiredAttributes = plan.retirements.length ? await retireTargetAttributes(tx, { ...base, retirements: plan.retirements }) : [];
    const classify = (plan.classifyJobs ?? []).filter((j) =>
      created.some((c) => plan.attributes.find((a) => a.id === c.id)?.entityCanonicalName === j.entityCanonicalName),
    );
    if (classify.length) await queueClassifyJobs(tx, { namespace: plan.namespace, now: context.now, jobs: classify });
    const retiredMemories = plan.retirements.length
      ? await retireTargetMemories(tx, { ...base, sourceMemoryId: plan.sourceMemoryId, retirements: plan.retirements })
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
