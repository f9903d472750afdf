import type { Executor } from '../executor.js';
import { MEMORY_RETURN, type MemoryRecord } from '../records.js';

// Everything ranking, filtering and budgeting need, for the candidate ids only; embeddings stay
// in the database. Constraints: decision memories or memories behind an active constraint.
// Superseded: the deep path's full mode replaced the memory (supersededAt). Compressed: a session
// summary stands for it (compressedAt). Only chunks of the query vector's length are compared: after
// a switch to a model of another dimension, those the tracker has not re-embedded yet are skipped.
export const LOAD_RECALL_MEMORIES = `
UNWIND $ids AS id
MATCH (m:Memory {id: id})
WHERE m.namespace = $namespace
  AND ($includeDeleted OR m.deletedAt IS NULL)
  AND ($includeSuperseded OR m.supersededAt IS NULL)
  AND ($includeCompressed OR m.compressedAt IS NULL)
RETURN ${MEMORY_RETURN('m')} AS record,
       m.type = 'decision' OR EXISTS { (m)<-[:FROM]-(:Attribute {kind: 'constraint', status: 'active'}) } AS isConstraint,
       CASE WHEN $vector IS NULL THEN [] ELSE [(m)-[:HAS_CHUNK]->(c:Chunk) WHERE size(c.embedding) = size($vector) | vector.similarity.cosine(c.embedding, $vector)] END AS similarities`;

export interface RecallLoadOptions {
  namespace: string;
  includeDeleted: boolean;
  includeSuperseded: boolean;
  /** Memories summarized by compression (compressedAt) come back only when asked for. */
  includeCompressed: boolean;
  /** The query vector: each memory's chunk similarities come back with it. */
  vector?: readonly number[] | null;
}

export type RecallMemoryRow = {
  record: MemoryRecord;
  isConstraint: boolean;
  /** Each embedded chunk's similarity to the query vector, (1 + cos) / 2; empty without a vector. */
  similarities: number[];
};

/** The candidates of the namespace that the options let through, with what ranking needs. */
export async function recallMemoryRows(executor: Executor, ids: string[], options: RecallLoadOptions): Promise<RecallMemoryRow[]> {
  return executor.read<RecallMemoryRow>('recall.load', LOAD_RECALL_MEMORIES, {
    ids,
    ...options,
    vector: options.vector ? [...options.vector] : null,
  });
}
