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

/** A memory's open near-duplicates (as db/search/duplicate-groups.ts reads them), at most `$maxDuplicates`. */
const OPEN_DUPLICATES = (m: string) => `CASE WHEN ${m}.supersededAt IS NULL THEN [(${m})-[d:DUPLICATE_OF]-(b:Memory)
         WHERE d.reviewedAt IS NULL AND b.namespace = $namespace AND b.deletedAt IS NULL AND b.supersededAt IS NULL
         | b.id][..toInteger($maxDuplicates)] ELSE [] END AS duplicates`;

/**
 * Hydration with what the collapse stage reads, in one round trip: the candidates as
 * LOAD_RECALL_MEMORIES loads them, each with its open near-duplicates. Session neighbours are not
 * read here: the context stage wants them for the ranked head only (RECALL_CONTEXT).
 */
export const LOAD_RECALL_CANDIDATES = `
UNWIND $ids AS id
MATCH (m:Memory {id: id})
WHERE ${PASSES_INCLUDE('m')}
RETURN ${RECALL_FIELDS},
       ${OPEN_DUPLICATES('m')}`;

/**
 * The context stage's one round trip: up to `$window` session neighbours on each side of each
 * anchor (db/search/context.ts's sessionWindow), each with the anchors it neighbours, and — for
 * the neighbours not in `$loaded` that the options let through — what hydration loads with a
 * candidate (fields, chunk similarities, open near-duplicates); null fields for the others.
 */
export const RECALL_CONTEXT = `
UNWIND $ids AS id
MATCH (a:Memory {id: id})
WHERE a.namespace = $namespace AND a.sessionId IS NOT NULL AND a.timelineKey IS NOT NULL
${sessionWindow('a', 'm')}
WITH m, collect(id) AS anchors
OPTIONAL CALL (m) {
  WITH m WHERE NOT m.id IN $loaded AND ${PASSES_INCLUDE('m')}
  RETURN ${RECALL_FIELDS},
         ${OPEN_DUPLICATES('m')}
}
RETURN m.id AS memoryId, anchors, record, isConstraint, similarities, duplicates`;

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
  /** Its open near-duplicates (ids of live, unsuperseded memories of the namespace). */
  duplicates: string[];
};

/** The candidates, each with its open near-duplicates. */
export async function recallCandidateRows(
  executor: Executor,
  ids: string[],
  options: RecallLoadOptions & { maxDuplicates: number },
): Promise<RecallCandidateRow[]> {
  return executor.read<RecallCandidateRow>('recall.candidates', LOAD_RECALL_CANDIDATES, {
    ids,
    ...options,
    vector: options.vector ? [...options.vector] : null,
  });
}

/** A session neighbour of the anchors; `memory` when it was not in `loaded` and the options let it through. */
export type RecallContextRow = {
  memoryId: string;
  anchors: string[];
  memory: RecallCandidateRow | null;
};

/** The anchors' session neighbours, the ones not yet loaded hydrated as candidates are (RECALL_CONTEXT). */
export async function recallContextRows(
  executor: Executor,
  anchorIds: string[],
  loaded: string[],
  options: RecallLoadOptions & { window: number; maxDuplicates: number },
): Promise<RecallContextRow[]> {
  const rows = await executor.read<
    RecallCandidateRow & { memoryId: string; anchors: string[]; record: RecallCandidateRow['record'] | null }
  >('recall.context', RECALL_CONTEXT, { ids: anchorIds, loaded, ...options, vector: options.vector ? [...options.vector] : null });
  return rows.map(({ memoryId, anchors, record, isConstraint, similarities, duplicates }) => ({
    memoryId,
    anchors,
    memory: record ? { record, isConstraint, similarities, duplicates } : null,
  }));
}
