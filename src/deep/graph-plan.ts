import { randomUUID } from 'node:crypto';
import { canonicalName } from './classify-fact.js';
import type { FactWrite } from './fact-writes.js';
import type { GraphAttribute, GraphEntity, GraphPlan, GraphRelation, TargetRetirement } from './graph-write.js';
import type { MemoryPlan } from './plan.js';

/** Turns a memory's plan plus the fact writes into the graph transaction's input. */
export function buildGraphPlan(
  namespace: string,
  sourceMemoryId: string,
  plan: MemoryPlan,
  writes: ReadonlyMap<number, FactWrite>,
): GraphPlan {
  const entities = new Map<string, GraphEntity>();
  const relations = new Map<string, GraphRelation>();
  for (const t of plan.extraction.entities) {
    for (const name of [t.source, t.target]) {
      const key = canonicalName(name);
      const seen = entities.get(key);
      if (!seen) entities.set(key, { id: randomUUID(), name, canonicalName: key, mentionText: name, confidence: t.confidence });
      else seen.confidence = Math.max(seen.confidence, t.confidence);
    }
    const relation = {
      source: canonicalName(t.source),
      target: canonicalName(t.target),
      type: canonicalName(t.relationship),
      confidence: t.confidence,
    };
    const key = `${relation.source}\u0000${relation.type}\u0000${relation.target}`;
    const seen = relations.get(key);
    if (!seen || seen.confidence < relation.confidence) relations.set(key, relation);
  }

  const attributes: GraphAttribute[] = [];
  const retirements: TargetRetirement[] = [];
  for (const p of plan.proposals) {
    const write = writes.get(p.index);
    if (p.attribute && write?.memoryId) {
      const { plan: a } = p.attribute;
      attributes.push({
        id: p.attribute.id,
        memoryId: write.memoryId,
        entityCanonicalName: a.entityCanonicalName,
        aspectId: randomUUID(),
        aspect: a.aspect,
        aspectCanonicalName: a.aspectCanonicalName,
        content: p.fact.content,
        kind: a.kind,
        importance: a.importance,
        confidence: p.fact.confidence,
      });
    }
    const v = p.verdict;
    if (v.apply === 'delete' || (v.apply === 'update' && write?.memoryId)) {
      const newAttributeIds = v.apply === 'update' && p.attribute ? [p.attribute.id] : [];
      retirements.push({
        targetMemoryId: v.targetId,
        action: v.apply === 'update' ? 'UPDATE' : 'DELETE',
        reason: p.decision?.reason ?? '',
        newAttributeIds,
        newMemoryId: v.apply === 'update' ? (write?.memoryId ?? null) : null,
      });
    }
  }
  const attributeIds = new Set(attributes.map((a) => a.id));
  return {
    namespace,
    sourceMemoryId,
    entities: [...entities.values()],
    relations: [...relations.values()],
    attributes,
    supersessions: plan.supersessions.filter((s) => attributeIds.has(s.newId)),
    retirements,
  };
}
