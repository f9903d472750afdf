import { randomUUID } from 'node:crypto';
import type { Executor } from '../db/index.js';
import { attributesByIds } from '../db/index.js';
import { entityByCanonicalName, KNOWLEDGE_EVENT } from '../db/index.js';
import type { AttributeRecord, EntityRecord, MemoryRecord } from '../db/index.js';
import { NotFoundError } from '../errors.js';
import { ATTRIBUTE_IMPORTANCE, canonicalName, CONSTRAINT_IMPORTANCE } from '../deep/index.js';
import type { FactWriter } from '../deep/index.js';
import { gate, OUTCOME } from '../deep/index.js';
import { persistGraph } from '../deep/index.js';
import { historyId } from '../deep/index.js';
import { planSupersessions } from '../deep/index.js';
import type { Logger } from '../logger.js';
import type { RedactionOptions } from '../redaction/index.js';
import type { Actor } from './actor.js';
import {
  checkNamespace,
  confidence,
  entityName,
  factKind,
  MAX_ASPECT_CHARS,
  MAX_FACT_CHARS,
  storedText,
  type FactKind,
} from './validate.js';

export interface AssertSettings {
  redaction: RedactionOptions;
  minFactConfidence: number;
  /** MUTATIONS_FROZEN: the gate records and refuses, as for extracted facts. */
  frozen: boolean;
}

export interface AssertFactInput {
  entity: string;
  aspect: string;
  content: string;
  kind?: string | null;
  confidence?: number | null;
}

export interface AssertFactResult {
  /** created, deduped (already an active attribute of the aspect), or the gate's skipped:/frozen outcome. */
  outcome: string;
  entity: EntityRecord;
  /** The memory the fact is stored as (recall finds it); null when the gate refused it. */
  memory: MemoryRecord | null;
  attribute: AttributeRecord | null;
  /** Ids of the active attributes this fact contradicted and superseded. */
  superseded: string[];
}

export const ASSERTED_FACT_WHY = 'asserted-fact';
const NO_MODEL = 'none';

/**
 * A fact the caller states about an entity, through the deep path's own stages without its
 * LLM: the safety gate, the fact as a memory through the write path, the attribute under the
 * aspect, syntactic contradiction against the aspect's active attributes (supersession), and
 * an audit event. Each step is idempotent, so repeating the call repeats nothing.
 */
export async function assertFact(
  deps: { executor: Executor; writer: FactWriter; logger: Logger; settings: AssertSettings },
  who: Actor,
  input: AssertFactInput,
): Promise<AssertFactResult> {
  const { executor, settings } = deps;
  const namespace = checkNamespace(who.namespace);
  const named = entityName(input.entity, 'entity', settings.redaction);
  const aspect = storedText(input.aspect, 'aspect', MAX_ASPECT_CHARS, settings.redaction).replace(/\s+/g, ' ');
  const content = storedText(input.content, 'content', MAX_FACT_CHARS, settings.redaction);
  const kind = factKind(input.kind);
  const c = confidence(input.confidence);

  const found = await entityByCanonicalName(executor, namespace, named.canonicalName);
  if (!found) throw new NotFoundError('entity', named.name);
  const entity = found.entity;

  const fact = { content, type: kind === 'constraint' ? ('decision' as const) : ('fact' as const), confidence: c };
  const verdict = gate(
    settings.frozen ? 'frozen' : 'controlled-write',
    fact,
    { action: 'ADD', targetId: null, confidence: c, reason: 'asserted', byModel: false },
    settings.minFactConfidence,
  );
  if (verdict.apply !== 'add') {
    const outcome = verdict.apply === 'none' ? verdict.outcome : OUTCOME.dropped;
    deps.logger.info({ namespace, entityId: entity.id, outcome }, 'asserted fact refused by the gate');
    return { outcome, entity, memory: null, attribute: null, superseded: [] };
  }

  // The fact is a memory like any other (normalize, redact, dedup, embed), without a deep-path job.
  const [written] = await deps.writer.rememberBatch(
    [
      {
        content: memoryText(entity.name, content),
        namespace,
        type: fact.type,
        who: who.actor,
        why: ASSERTED_FACT_WHY,
        metadata: { entityId: entity.id, aspect, factConfidence: c },
      },
    ],
    { enqueueJobs: false },
  );
  if (written!.error) throw written!.error;
  const memory = written!.result!.memory;

  const attributeId = randomUUID();
  const graph = await writeAssertedAttribute(executor, {
    namespace,
    actor: who.actor,
    entity,
    memory,
    attributeId,
    aspect,
    content,
    kind,
    confidence: c,
  });
  const created = graph.attributesCreated.includes(attributeId);
  const superseded = graph.superseded.map((s) => s.oldId);
  const outcome = created ? OUTCOME.created : OUTCOME.deduped;
  const [attribute] = created ? await attributesByIds(executor, [attributeId]) : [];
  return { outcome, entity, memory, attribute: attribute?.row ?? null, superseded };
}

/**
 * The asserted fact's attribute under its aspect, what it supersedes (syntactic contradiction
 * only, no model) and its `fact.asserted` event, in the one graph transaction of the deep path.
 */
async function writeAssertedAttribute(
  executor: Executor,
  a: {
    namespace: string;
    actor: string;
    entity: EntityRecord;
    memory: { id: string; contentHash: string };
    attributeId: string;
    aspect: string;
    content: string;
    kind: FactKind;
    confidence: number;
  },
) {
  const { namespace, entity, attributeId, aspect, content, kind, confidence: c } = a;
  const memoryId = a.memory.id;
  const eventId = historyId();
  const plan = attributePlan(entity, aspect, kind);
  const supersessions = await planSupersessions(executor, null, namespace, [{ id: attributeId, content, plan }], {
    enabled: false,
    timeoutMs: 0,
  });
  const outcomeOf = (created: string[]) => (created.includes(attributeId) ? OUTCOME.created : OUTCOME.deduped);
  return persistGraph(
    executor,
    {
      namespace,
      sourceMemoryId: memoryId,
      entities: [{ id: entity.id, name: entity.name, canonicalName: entity.canonicalName, mentionText: entity.name, confidence: c }],
      relations: [],
      attributes: [
        {
          id: attributeId,
          memoryId,
          entityCanonicalName: entity.canonicalName,
          aspectId: randomUUID(),
          aspect,
          aspectCanonicalName: plan.aspectCanonicalName,
          content,
          kind,
          importance: plan.importance,
          confidence: c,
        },
      ],
      supersessions,
      retirements: [],
    },
    {
      now: new Date().toISOString(),
      model: NO_MODEL,
      sourceContentHash: a.memory.contentHash,
      // The `fact.asserted` event commits with the attribute it records.
      audit: (result) => {
        const created = result.attributesCreated.includes(attributeId);
        return [
          {
            id: eventId,
            memoryId,
            event: KNOWLEDGE_EVENT.factAsserted,
            actor: a.actor,
            outcome: outcomeOf(result.attributesCreated),
            reason: null,
            confidence: c,
            details: {
              entityId: entity.id,
              aspect,
              kind,
              attributeId: created ? attributeId : null,
              superseded: result.superseded.map((s) => s.oldId),
            },
          },
        ];
      },
    },
  );
}

function attributePlan(entity: EntityRecord, aspect: string, kind: FactKind) {
  return {
    entityName: entity.name,
    entityCanonicalName: entity.canonicalName,
    aspect,
    aspectCanonicalName: canonicalName(aspect),
    kind,
    importance: kind === 'constraint' ? CONSTRAINT_IMPORTANCE : ATTRIBUTE_IMPORTANCE,
  };
}

/** The memory names its entity, so recall finds "Alice: prefers tea" by "Alice". */
export function memoryText(entityName: string, content: string): string {
  return content.toLowerCase().includes(entityName.toLowerCase()) ? content : `${entityName}: ${content}`;
}
