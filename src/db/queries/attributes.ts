import type { Executor, TxRunner } from '../executor.js';
import type { GraphWriteScope } from './extracted-entities.js';
import type { AttributeInsert } from './remember-write.js';

/**
 * Attributes the deep path writes (under an aspect of an entity, FROM the memory that states
 * them) and their supersession: by a newer attribute that contradicts them, or with the memory
 * an UPDATE/DELETE decision retires.
 */

export const ACTIVE_SIBLING_ATTRIBUTES = `
UNWIND $keys AS k
MATCH (e:Entity {namespace: $namespace, canonicalName: k.entity})-[:HAS_ASPECT]->(asp:Aspect {canonicalName: k.aspect})
MATCH (asp)-[:HAS_ATTRIBUTE]->(attr:Attribute {status: 'active'})
RETURN k.entity AS entity, k.aspect AS aspect, attr.id AS id, attr.content AS content`;

export const CREATE_EXTRACTED_ATTRIBUTES = `
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

export const SUPERSEDE_ATTRIBUTES = `
UNWIND $supersessions AS s
MATCH (newer:Attribute {id: s.newId, status: 'active'})
MATCH (old:Attribute {id: s.oldId, status: 'active'})
SET old.status = 'superseded', old.validTo = $now
MERGE (newer)-[r:SUPERSEDES]->(old)
  ON CREATE SET r.method = s.method, r.reason = s.detail, r.at = $now
RETURN s.newId AS newId, s.oldId AS oldId`;

export const RETIRE_TARGET_ATTRIBUTES = `
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

/** An attribute as the inline linker writes it, plus the extraction's confidence. */
export interface ExtractedAttribute extends AttributeInsert {
  confidence: number;
}

/** An older attribute superseded by a newer one it contradicts. */
export interface AttributeSupersession {
  newId: string;
  oldId: string;
  method: string;
  detail: string;
}

/** The memory an UPDATE/DELETE decision retires, and the attributes that replace its own. */
export interface TargetRetirementRow {
  targetMemoryId: string;
  action: string;
  reason: string;
  newAttributeIds: string[];
  newMemoryId: string | null;
}

/** The active attributes under each (entity, aspect) pair of the namespace. */
export async function activeSiblingAttributes(
  executor: Executor,
  namespace: string,
  keys: ReadonlyArray<{ entity: string; aspect: string }>,
): Promise<Array<{ entity: string; aspect: string; id: string; content: string }>> {
  return executor.read<{ entity: string; aspect: string; id: string; content: string }>('extraction.siblings', ACTIVE_SIBLING_ATTRIBUTES, {
    namespace,
    keys,
  });
}

/** The ids created (an attribute whose text is already active under its aspect is not). */
export async function createExtractedAttributes(
  tx: TxRunner,
  p: GraphWriteScope & { attributes: readonly ExtractedAttribute[]; actor: string },
): Promise<Array<{ id: string }>> {
  return tx.run<{ id: string }>(CREATE_EXTRACTED_ATTRIBUTES, { ...p });
}

/** The pairs applied (both attributes still active). */
export async function supersedeAttributes(
  tx: TxRunner,
  p: GraphWriteScope & { supersessions: readonly AttributeSupersession[] },
): Promise<Array<{ newId: string; oldId: string }>> {
  return tx.run<{ newId: string; oldId: string }>(SUPERSEDE_ATTRIBUTES, { ...p });
}

/** Per retired memory, the ids of its attributes now superseded. */
export async function retireTargetAttributes(
  tx: TxRunner,
  p: GraphWriteScope & { retirements: readonly TargetRetirementRow[] },
): Promise<Array<{ targetMemoryId: string; attributeIds: string[] }>> {
  return tx.run<{ targetMemoryId: string; attributeIds: string[] }>(RETIRE_TARGET_ATTRIBUTES, { ...p });
}
