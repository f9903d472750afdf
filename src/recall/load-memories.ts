import type { Executor } from '../db/index.js';
import { MEMORY_RETURN, type MemoryRecord } from '../db/index.js';
import type { RecallMemory } from './types.js';

// Everything ranking, filtering and budgeting need, for the candidate ids only; embeddings stay
// in the database. Constraints: decision memories or memories behind an active constraint.
// Superseded: the deep path's full mode replaced the memory (supersededAt). Compressed: a session
// summary stands for it (compressedAt).
const LOAD_RECALL_MEMORIES = `
UNWIND $ids AS id
MATCH (m:Memory {id: id})
WHERE m.namespace = $namespace
  AND ($includeDeleted OR m.deletedAt IS NULL)
  AND ($includeSuperseded OR m.supersededAt IS NULL)
  AND ($includeCompressed OR m.compressedAt IS NULL)
RETURN ${MEMORY_RETURN('m')} AS record,
       m.type = 'decision' OR EXISTS { (m)<-[:FROM]-(:Attribute {kind: 'constraint', status: 'active'}) } AS isConstraint,
       [(m)-[:MENTIONS]->(e:Entity) | {entityId: e.id, mentions: e.mentions}] AS entityMentions,
       CASE WHEN $vector IS NULL THEN [] ELSE [(m)-[:HAS_CHUNK]->(c:Chunk) WHERE c.embedding IS NOT NULL | vector.similarity.cosine(c.embedding, $vector)] END AS similarities`;

export interface LoadOptions {
  namespace: string;
  includeDeleted: boolean;
  includeSuperseded: boolean;
  /** Memories summarized by compression (compressedAt) come back only when asked for. */
  includeCompressed: boolean;
  /** The query vector: each memory's best-chunk similarity comes back with it (the reranker's input). */
  vector?: readonly number[] | null;
}

export type LoadedMemory = RecallMemory & {
  record: MemoryRecord;
  /** Best chunk's similarity to the query vector, (1 + cos) / 2; null without a vector. */
  similarity: number | null;
};

export async function loadRecallMemories(executor: Executor, ids: string[], options: LoadOptions): Promise<Map<string, LoadedMemory>> {
  if (ids.length === 0) return new Map();
  const rows = await executor.read<{
    record: MemoryRecord;
    isConstraint: boolean;
    entityMentions: RecallMemory['entityMentions'];
    similarities: number[];
  }>('recall.load', LOAD_RECALL_MEMORIES, { ids, ...options, vector: options.vector ? [...options.vector] : null });
  return new Map(
    rows.map(({ record, isConstraint, entityMentions, similarities }) => [
      record.id,
      {
        memoryId: record.id,
        content: record.content,
        type: record.type,
        importance: record.importance,
        occurredAt: record.occurredAt,
        createdAt: record.createdAt,
        tags: record.tags,
        isConstraint,
        entityMentions,
        pinned: record.pinned,
        validUntil: record.validUntil,
        staleReason: record.stale ? (record.staleReason ?? null) : null,
        record,
        similarity: similarities.length > 0 ? Math.max(...similarities) : null,
      },
    ]),
  );
}
