import type { Executor } from '../../db/index.js';
import { type MemoryRecord } from '../../db/index.js';
import { recallCandidateRows, recallMemoryRows, type RecallLoadOptions } from '../../db/search/index.js';
import type { RecallMemory } from '../types.js';
import type { Logger } from '../../logger.js';

/**
 * Hydration: the candidates' fields for ranking, filtering and budgeting, with the question
 * vector's best-chunk similarity (what the rerank and the context gate read) — and, in the same
 * statement (db/search/load-memories.ts), what the later stages would otherwise fetch one round
 * trip each: every candidate's session neighbours and the neighbours no leg found (the context
 * stage), and every memory's open near-duplicates (the collapse stage). Those stages read them
 * from `run.memories`.
 *
 * Failure rule: when that statement fails, hydration loads the candidates alone (the context and
 * collapse stages then fetch their own, under their own failure rules); when that fails too, the
 * recall fails (nothing to rank).
 */
export type LoadOptions = RecallLoadOptions;

/** Open near-duplicates read per memory at most: each has a handful (the collapse's bound, with a few hundred candidates). */
export const MAX_DUPLICATES_PER_MEMORY = 20;

export type LoadedMemory = RecallMemory & {
  record: MemoryRecord;
  /** Best chunk's similarity to the query vector, (1 + cos) / 2; null without a vector. */
  similarity: number | null;
  /** Its session neighbours (context stage); null when not read with it (it was not a candidate, or context is off). */
  neighbours: string[] | null;
  /** Its open near-duplicates (collapse stage); null when not read with it. */
  duplicates: string[] | null;
};

/** What hydration reads of the recall's run (stage.ts's RecallRun). */
export interface HydrationRun {
  executor: Executor;
  logger: Logger;
  namespace: string;
  include: { includeDeleted: boolean; includeSuperseded: boolean; includeCompressed: boolean };
  vector: number[] | null;
}

/**
 * The candidates, and with them what the context and collapse stages read (`window`: the
 * context stage's session window, 0 when it does not run).
 */
export async function hydrate(run: HydrationRun, ids: string[], window: number): Promise<Map<string, LoadedMemory>> {
  if (ids.length === 0) return new Map();
  const options = { namespace: run.namespace, ...run.include, vector: run.vector };
  try {
    const rows = await recallCandidateRows(run.executor, ids, { ...options, window, maxDuplicates: MAX_DUPLICATES_PER_MEMORY });
    return new Map(rows.map((row) => [row.record.id, loaded(row, window > 0 ? row.neighbours : null, row.duplicates)]));
  } catch (error) {
    run.logger.warn({ error }, 'recall candidates with their neighbours unavailable; loading the candidates alone');
    return loadRecallMemories(run.executor, ids, options);
  }
}

/** The memories alone (no neighbours, no near-duplicates). */
export async function loadRecallMemories(executor: Executor, ids: string[], options: LoadOptions): Promise<Map<string, LoadedMemory>> {
  if (ids.length === 0) return new Map();
  const rows = await recallMemoryRows(executor, ids, options);
  return new Map(rows.map((row) => [row.record.id, loaded(row, null, null)]));
}

/**
 * What hydration read with each of `ids` (`pick`: its neighbours or its near-duplicates), as
 * [id, other] pairs; null when it did not read it for every one (the stage then reads its own).
 */
export function readWithCandidates(
  memories: ReadonlyMap<string, LoadedMemory>,
  ids: readonly string[],
  pick: (memory: LoadedMemory) => string[] | null,
): Array<[string, string]> | null {
  const pairs: Array<[string, string]> = [];
  for (const id of ids) {
    const memory = memories.get(id);
    const others = memory ? pick(memory) : null;
    if (!others) return null;
    for (const other of others) pairs.push([id, other]);
  }
  return pairs;
}

function loaded(
  { record, isConstraint, similarities }: { record: MemoryRecord; isConstraint: boolean; similarities: number[] },
  neighbours: string[] | null,
  duplicates: string[] | null,
): LoadedMemory {
  return {
    memoryId: record.id,
    content: record.content,
    type: record.type,
    importance: record.importance,
    occurredAt: record.occurredAt,
    createdAt: record.createdAt,
    tags: record.tags,
    isConstraint,
    pinned: record.pinned,
    staleReason: record.stale ? (record.staleReason ?? null) : null,
    record,
    similarity: similarities.length > 0 ? Math.max(...similarities) : null,
    neighbours,
    duplicates,
  };
}
