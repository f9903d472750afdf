import { randomUUID } from 'node:crypto';
import type { Executor } from '../db/index.js';
import { entityByCanonicalName, mergeEntity, mergeEntityInto, relateEntities, type MergeCounts, type RelationRow } from '../db/index.js';
import {
  attributeHistory,
  entitiesPage,
  entityByName,
  MAX_RELATIONS_QUERY,
  neighborhood,
  relationsByEntityIds,
  storedNamespaces,
  type AttributeRecord,
  type EntityRecord,
  type NeighborDepth,
  type RelationRecord,
} from '../db/index.js';
import { NotFoundError, ValidationError } from '../errors.js';
import type { FactWriter } from '../deep/index.js';
import type { Logger } from '../logger.js';
import type { RedactionOptions } from '../redaction/index.js';
import { namespaceToken } from '../text/index.js';
import type { Actor } from './actor.js';
import { assertFact, type AssertFactInput, type AssertFactResult, type AssertSettings } from './fact-assertion.js';
import { describeEntity, type EntityDescription } from './describe-entity.js';
import { eraseNamespace, type EraseReport } from './erase-namespace.js';
import { checkNamespace, confidence, entityName, entityType, MAX_DESCRIPTION_CHARS, optionalStoredText, relationType } from './validate.js';

export interface KnowledgeSettings extends AssertSettings {
  redaction: RedactionOptions;
}

/** Who writes, for the audit trail. */
export type { Actor };

export interface EntityResult {
  entity: EntityRecord;
  description: string | null;
  created: boolean;
}

export interface MergeOutcome {
  entity: EntityRecord;
  merged: MergeCounts;
}

/**
 * Structured writes without an LLM: entities and relations as the caller states them, and the
 * merge of two entities that turn out to be one. Names are redacted and matched canonically.
 */
export class KnowledgeService {
  constructor(
    private readonly executor: Executor,
    private readonly writer: FactWriter,
    private readonly settings: KnowledgeSettings,
    private readonly logger: Logger,
  ) {}

  /** A fact about an existing entity, through the deep path's gate, supersession and audit (no LLM). */
  assertFact(who: Actor, input: AssertFactInput): Promise<AssertFactResult> {
    return assertFact({ executor: this.executor, writer: this.writer, logger: this.logger, settings: this.settings }, who, input);
  }

  /** Erases every node of a namespace; `confirm` must repeat it. */
  deleteNamespace(namespace: string, confirm: string): Promise<EraseReport> {
    return eraseNamespace(this.executor, this.logger, namespace, confirm);
  }

  async createEntity(who: Actor, input: { name: string; type?: string | null; description?: string | null }): Promise<EntityResult> {
    const namespace = checkNamespace(who.namespace);
    const { name, canonicalName } = entityName(input.name, 'name', this.settings.redaction);
    const result = await mergeEntity(this.executor, {
      id: randomUUID(),
      eventId: randomUUID(),
      namespace,
      namespaceToken: namespaceToken(namespace),
      name,
      canonicalName,
      type: entityType(input.type),
      description: optionalStoredText(input.description, 'description', MAX_DESCRIPTION_CHARS, this.settings.redaction),
      actor: who.actor,
    });
    return result;
  }

  /** A relation between two existing entities (by name); NOT_FOUND names the missing one. */
  async relate(who: Actor, input: { source: string; type: string; target: string; confidence?: number | null }): Promise<RelationRow> {
    const namespace = checkNamespace(who.namespace);
    const source = entityName(input.source, 'source', this.settings.redaction);
    const target = entityName(input.target, 'target', this.settings.redaction);
    const type = relationType(input.type, this.settings.redaction);
    const c = confidence(input.confidence);
    const row = await relateEntities(this.executor, {
      id: randomUUID(),
      namespace,
      source: source.canonicalName,
      target: target.canonicalName,
      type,
      confidence: c,
      actor: who.actor,
    });
    if (row) return row;
    await this.requireEntity(namespace, source.canonicalName, source.name);
    await this.requireEntity(namespace, target.canonicalName, target.name);
    throw new NotFoundError('entity', `${source.name} or ${target.name}`);
  }

  /** Folds `merge` into `keep`: mentions, aspects with their attributes and relations move; an audit event stays. */
  async mergeEntities(who: Actor, input: { keep: string; merge: string }): Promise<MergeOutcome> {
    const namespace = checkNamespace(who.namespace);
    const keepName = entityName(input.keep, 'keep', this.settings.redaction);
    const mergeName = entityName(input.merge, 'merge', this.settings.redaction);
    if (keepName.canonicalName === mergeName.canonicalName)
      throw new ValidationError('keep and merge name the same entity', { field: 'merge' });
    const keep = await this.requireEntity(namespace, keepName.canonicalName, keepName.name);
    const merge = await this.requireEntity(namespace, mergeName.canonicalName, mergeName.name);
    const result = await mergeEntityInto(this.executor, {
      namespace,
      keepId: keep.id,
      mergeId: merge.id,
      eventId: randomUUID(),
      actor: who.actor,
    });
    // A concurrent merge or delete took one of them between the lookup and the transaction.
    if (!result) throw new NotFoundError('entity', mergeName.name);
    this.logger.info({ namespace, keepId: keep.id, mergedId: merge.id, ...result.counts }, 'entities merged');
    return { entity: result.entity, merged: result.counts };
  }

  async entity(namespace: string, name: string): Promise<EntityRecord> {
    const n = entityName(name, 'entity', this.settings.redaction);
    return this.requireEntity(checkNamespace(namespace), n.canonicalName, n.name);
  }

  // Reads: the graph as the edge shows it (namespaces already checked against the caller's key).

  /** One entity of a namespace by name or alias (cleaned like stored names), or null. */
  findEntity(namespace: string, name: string): Promise<EntityRecord | null> {
    return entityByName(this.executor, namespace, name);
  }

  /** Entities of a namespace, most mentioned first, a page at a time. */
  entities(query: Parameters<typeof entitiesPage>[1]) {
    return entitiesPage(this.executor, query);
  }

  /** One entity by name with its active knowledge (get_entity); NOT_FOUND when missing. */
  describe(namespace: string, name: string): Promise<EntityDescription> {
    return describeEntity(this.executor, namespace, name);
  }

  /** The supersession chain of an entity's aspect, oldest first (the newest `limit`). */
  attributeHistory(entityId: string, aspect: string, limit: number): Promise<AttributeRecord[]> {
    return attributeHistory(this.executor, entityId, aspect, limit);
  }

  /** An entity's relations, most mentioned first (at most MAX_RELATIONS_QUERY). */
  async relations(entityId: string): Promise<RelationRecord[]> {
    return (await relationsByEntityIds(this.executor, [entityId], MAX_RELATIONS_QUERY)).map((r) => r.row);
  }

  /** Entities within `depth` hops of an entity, with the relations walked; null when it is missing. */
  neighborhood(entityId: string, depth: NeighborDepth) {
    return neighborhood(this.executor, entityId, depth);
  }

  /** The namespaces that hold anything (the memory explorer's list for a key that reads all). */
  namespaces(): Promise<string[]> {
    return storedNamespaces(this.executor);
  }

  private async requireEntity(namespace: string, canonicalName: string, name: string): Promise<EntityRecord> {
    const found = await entityByCanonicalName(this.executor, namespace, canonicalName);
    if (!found) throw new NotFoundError('entity', name);
    return found.entity;
  }
}
