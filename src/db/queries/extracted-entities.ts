import type { TxRunner } from '../executor.js';

/**
 * The entities and relations the deep path extracts from one memory, written in its graph
 * transaction (the caller composes the statements). Ids and the relation counters' write id are
 * made before the transaction, so a re-run counts nothing twice.
 */

// A memory counts once per entity: mentions move only when this memory's MENTIONS link is new,
// so re-processing a memory does not inflate them.
export const MERGE_EXTRACTED_ENTITIES = `
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
export const MERGE_EXTRACTED_RELATIONS = `
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

/** What every statement of the graph transaction is given: its namespace, time and write id. */
export interface GraphWriteScope {
  namespace: string;
  now: string;
  /** Made before the transaction: a re-run of it moves no relation counter twice. */
  writeId: string;
}

export interface ExtractedEntity {
  id: string;
  name: string;
  canonicalName: string;
  mentionText: string;
  confidence: number;
}

export interface ExtractedRelation {
  source: string;
  target: string;
  type: string;
  confidence: number;
}

export async function mergeExtractedEntities(
  tx: TxRunner,
  p: GraphWriteScope & { sourceMemoryId: string; entities: readonly ExtractedEntity[] },
): Promise<void> {
  await tx.run(MERGE_EXTRACTED_ENTITIES, { ...p });
}

export async function mergeExtractedRelations(
  tx: TxRunner,
  p: GraphWriteScope & { sourceMemoryId: string; relations: readonly ExtractedRelation[] },
): Promise<void> {
  await tx.run(MERGE_EXTRACTED_RELATIONS, { ...p });
}
