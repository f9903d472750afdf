import type { Executor } from '../db/index.js';
import { MEMORY_RETURN, type MemoryRecord } from '../db/records.js';
import type { RecallMemory } from './types.js';

// Everything ranking, filtering and budgeting need, for the candidate ids only; embeddings stay
// in the database. Constraints: decision memories or memories behind an active constraint.
// Superseded: the deep path's full mode replaced the memory (supersededAt). Nothing in this
// service compresses memories, so there is no compressed state to filter on.
const LOAD_RECALL_MEMORIES = `
UNWIND $ids AS id
MATCH (m:Memory {id: id})
WHERE m.namespace = $namespace
  AND ($includeDeleted OR m.deletedAt IS NULL)
  AND ($includeSuperseded OR m.supersededAt IS NULL)
RETURN ${MEMORY_RETURN('m')} AS record,
       m.type = 'decision' OR EXISTS { (m)<-[:FROM]-(:Attribute {kind: 'constraint', status: 'active'}) } AS isConstraint,
       [(m)-[:MENTIONS]->(e:Entity) | {entityId: e.id, mentions: e.mentions}] AS entityMentions`;

export interface LoadOptions {
  namespace: string;
  includeDeleted: boolean;
  includeSuperseded: boolean;
}

export type LoadedMemory = RecallMemory & { record: MemoryRecord };

export async function loadRecallMemories(executor: Executor, ids: string[], options: LoadOptions): Promise<Map<string, LoadedMemory>> {
  if (ids.length === 0) return new Map();
  const rows = await executor.read<{ record: MemoryRecord; isConstraint: boolean; entityMentions: RecallMemory['entityMentions'] }>(
    'recall.load',
    LOAD_RECALL_MEMORIES,
    { ids, ...options },
  );
  return new Map(
    rows.map(({ record, isConstraint, entityMentions }) => [
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
        record,
      },
    ]),
  );
}
