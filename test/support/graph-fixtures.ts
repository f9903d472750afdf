import { randomUUID } from 'node:crypto';
import type { Services } from '../../src/app.js';

/**
 * Entity-graph fixtures written with direct Cypher, for tests that need many nodes or exact
 * shapes the linker would not produce. Every node carries the namespace, so cleanNamespace
 * removes them.
 */

export interface SeededGraph {
  memoryIds: string[];
  entityIds: string[];
  aspectIds: string[];
  attributeIds: string[];
}

const SEED = `
UNWIND range(0, toInteger($n) - 1) AS i
CREATE (m:Memory {
  id: $ids[i].memory, namespace: $namespace, name: 'fixture ' + i, content: 'fixture memory ' + i,
  contentHash: 'fixture-' + i, type: 'fact', importance: 0.5, tags: [], createdAt: $now, updatedAt: $now,
  accessCount: 0, temporal: 'persistent', pinned: false })
CREATE (e:Entity {
  id: $ids[i].entity, namespace: $namespace, name: $prefix + ' ' + i, canonicalName: toLower($prefix) + ' ' + i,
  type: 'concept', mentions: i % 7, createdAt: $now })
CREATE (m)-[:MENTIONS {mentionText: e.name, confidence: 1.0}]->(e)
CREATE (e)-[:HAS_ASPECT]->(a:Aspect {
  id: $ids[i].aspect, namespace: $namespace, entityId: e.id, name: 'Role', canonicalName: 'role', weight: 1.0, createdAt: $now })
CREATE (a)-[:HAS_ATTRIBUTE]->(attr:Attribute {
  id: $ids[i].attribute, namespace: $namespace, content: 'plays role ' + i, name: 'plays role ' + i, kind: 'attribute',
  importance: 0.5, confidence: 1.0, status: 'active', validFrom: $now })
CREATE (attr)-[:FROM]->(m)`;

// Entity i relates to entity i+1 (a ring), so every entity has one relation each way.
const RING = `
UNWIND range(0, size($entityIds) - 1) AS i
MATCH (s:Entity {id: $entityIds[i]}), (o:Entity {id: $entityIds[(i + 1) % size($entityIds)]})
CREATE (s)-[:RELATES_TO {type: 'depends_on', strength: 1.0, confidence: 0.9, mentions: 1 + i % 3, createdAt: $now}]->(o)`;

export async function seedGraph(services: Services, namespace: string, n: number, prefix = 'Entity'): Promise<SeededGraph> {
  const ids = Array.from({ length: n }, () => ({
    memory: randomUUID(),
    entity: randomUUID(),
    aspect: randomUUID(),
    attribute: randomUUID(),
  }));
  const now = new Date().toISOString();
  await services.executor.write('test.seed-graph', SEED, { n, ids, namespace, now, prefix });
  await services.executor.write('test.seed-ring', RING, { entityIds: ids.map((i) => i.entity), now });
  return {
    memoryIds: ids.map((i) => i.memory),
    entityIds: ids.map((i) => i.entity),
    aspectIds: ids.map((i) => i.aspect),
    attributeIds: ids.map((i) => i.attribute),
  };
}

/** One entity with the given name; returns its id. */
export async function createEntity(
  services: Services,
  namespace: string,
  name: string,
  options: { mentions?: number; type?: string } = {},
): Promise<string> {
  const id = randomUUID();
  await services.executor.write(
    'test.entity',
    `CREATE (:Entity {id: $id, namespace: $namespace, name: $name, canonicalName: toLower($name), type: $type, mentions: toInteger($mentions), createdAt: $now})`,
    { id, namespace, name, type: options.type ?? 'concept', mentions: options.mentions ?? 0, now: new Date().toISOString() },
  );
  return id;
}

/** A RELATES_TO edge between two entities (of any namespaces: tests use that to probe isolation). */
export async function relate(services: Services, sourceId: string, targetId: string, type: string, mentions = 1): Promise<void> {
  await services.executor.write(
    'test.relate',
    `MATCH (s:Entity {id: $sourceId}), (o:Entity {id: $targetId})
     CREATE (s)-[:RELATES_TO {type: $type, strength: 1.0, confidence: 1.0, mentions: toInteger($mentions)}]->(o)`,
    { sourceId, targetId, type, mentions },
  );
}
