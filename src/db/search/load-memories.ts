import type { Executor } from '../executor.js';
import { MEMORY_RETURN, type MemoryRecord } from '../records.js';
import { sessionWindow } from './context.js';

// Everything ranking, filtering and budgeting need, for the candidate ids only; embeddings stay
// in the database (each chunk's similarity to the question comes back instead). Constraints:
// decision memories or memories behind an active constraint. Superseded: the deep path's full mode replaced the memory (supersededAt). Compressed: a session
// summary stands for it (compressedAt). Only chunks of the query vector's length are compared: after
// a switch to a model of another dimension, those the tracker has not re-embedded yet are skipped.
const PASSES_INCLUDE = (m: string) => `${m}.namespace = $namespace
  AND ($includeDeleted OR ${m}.deletedAt IS NULL)
  AND ($includeSuperseded OR ${m}.supersededAt IS NULL)
  AND ($includeCompressed OR ${m}.compressedAt IS NULL)`;

const RECALL_FIELDS = `${MEMORY_RETURN('m')} AS record,
       m.type = 'decision' OR EXISTS { (m)<-[:FROM]-(:Attribute {kind: 'constraint', status: 'active'}) } AS isConstraint,
       CASE WHEN $vector IS NULL THEN [] ELSE [(m)-[:HAS_CHUNK]->(c:Chunk) WHERE size(c.embedding) = size($vector) | vector.similarity.cosine(c.embedding, $vector)] END AS similarities`;

export const LOAD_RECALL_MEMORIES = `
UNWIND $ids AS id
MATCH (m:Memory {id: id})
WHERE ${PASSES_INCLUDE('m')}
RETURN ${RECALL_FIELDS}`;

/**
 * Hydration with what the later stages read, in one round trip: the candidates as
 * LOAD_RECALL_MEMORIES loads them, each with its session neighbours (up to `$window` memories on
 * each side, db/search/context.ts's sessionWindow; none when `$window` is 0), the
 * neighbours no leg found loaded the same way (`neighbours` null: they are not candidates), and
 * for every memory returned its open near-duplicates (as db/search/duplicate-groups.ts reads
 * them, at most `$maxDuplicates` each).
 */
export const LOAD_RECALL_CANDIDATES = `
UNWIND $ids AS id
MATCH (m:Memory {id: id})
WHERE ${PASSES_INCLUDE('m')}
CALL (m) {
  WITH m WHERE $window > 0 AND m.sessionId IS NOT NULL AND m.timelineKey IS NOT NULL
  ${sessionWindow('m', 'n')}
  RETURN collect(n.id) AS neighbours
}
WITH collect({m: m, neighbours: neighbours}) AS found
CALL (found) {
  UNWIND found AS f
  RETURN f.m AS m, f.neighbours AS neighbours
  UNION ALL
  UNWIND found AS f
  UNWIND f.neighbours AS nid
  WITH DISTINCT nid WHERE NOT nid IN $ids
  MATCH (m:Memory {id: nid})
  WHERE ${PASSES_INCLUDE('m')}
  RETURN m, null AS neighbours
}
RETURN ${RECALL_FIELDS}, neighbours,
       CASE WHEN m.supersededAt IS NULL THEN [(m)-[d:DUPLICATE_OF]-(b:Memory)
         WHERE d.reviewedAt IS NULL AND b.namespace = $namespace AND b.deletedAt IS NULL AND b.supersededAt IS NULL
         | b.id][..toInteger($maxDuplicates)] ELSE [] END AS duplicates`;

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

export type RecallCandidateRow = RecallMemoryRow & {
  /** A candidate's session neighbours (ids); null for a neighbour loaded because no leg found it. */
  neighbours: string[] | null;
  /** Its open near-duplicates (ids of live, unsuperseded memories of the namespace). */
  duplicates: string[];
};

/** The candidates with their session neighbours, the neighbours no leg found, and every one's open near-duplicates. */
export async function recallCandidateRows(
  executor: Executor,
  ids: string[],
  options: RecallLoadOptions & { window: number; maxDuplicates: number },
): Promise<RecallCandidateRow[]> {
  return executor.read<RecallCandidateRow>('recall.candidates', LOAD_RECALL_CANDIDATES, {
    ids,
    ...options,
    vector: options.vector ? [...options.vector] : null,
  });
}
