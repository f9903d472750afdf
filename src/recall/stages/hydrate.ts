import type { Executor } from '../../db/index.js';
import { type MemoryRecord } from '../../db/index.js';
import { recallCandidateRows, recallMemoryRows, type RecallLoadOptions } from '../../db/search/index.js';
import type { RecallMemory } from '../types.js';
import type { Logger } from '../../logger.js';

/**
 * Hydration: the candidates' fields for ranking, filtering and budgeting, with the question
 * vector's best-chunk similarity (what the rerank and the context gate read) and, in the same
 * statement (db/search/load-memories.ts), each one's open near-duplicates, which the collapse stage
 * reads from `run.memories` instead of a round trip of its own. Session neighbours are the context
 * stage's own read: it wants them for the ranked head only, and reading them for every candidate
 * cost more than the round trip it saved (docs/speed.md).
 *
 * Failure rule: when that statement fails, hydration loads the candidates alone (the collapse
 * stage then fetches its own links, under its own failure rule); when that fails too, the recall
 * fails (nothing to rank).
 */
export type LoadOptions = RecallLoadOptions;

/** Open near-duplicates read per memory at most: each has a handful (the collapse's bound, with a few hundred candidates). */
export const MAX_DUPLICATES_PER_MEMORY = 20;

export type LoadedMemory = RecallMemory & {
  record: MemoryRecord;
  /** Best chunk's similarity to the query vector, (1 + cos) / 2; null without a vector. */
  similarity: number | null;
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

/** The candidates, each with its open near-duplicates (what the collapse stage reads). */
export async function hydrate(run: HydrationRun, ids: string[]): Promise<Map<string, LoadedMemory>> {
  if (ids.length === 0) return new Map();
  const options = { namespace: run.namespace, ...run.include, vector: run.vector };
  try {
    const rows = await recallCandidateRows(run.executor, ids, { ...options, maxDuplicates: MAX_DUPLICATES_PER_MEMORY });
    return new Map(rows.map((row) => [row.record.id, loaded(row, row.duplicates)]));
  } catch (error) {
    run.logger.warn({ error }, 'recall candidates with their near-duplicates unavailable; loading the candidates alone');
    return loadRecallMemories(run.executor, ids, options);
  }
}

/** The memories alone (no near-duplicates). */
export async function loadRecallMemories(executor: Executor, ids: string[], options: LoadOptions): Promise<Map<string, LoadedMemory>> {
  if (ids.length === 0) return new Map();
  const rows = await recallMemoryRows(executor, ids, options);
  return new Map(rows.map((row) => [row.record.id, loaded(row, null)]));
}

/**
 * The open near-duplicate links read with each of `ids` (by hydration or the context stage), as
 * {a, b} pairs; null when they were not read for every one (the collapse stage then reads its own).
 */
export function duplicatesReadWith(
  memories: ReadonlyMap<string, LoadedMemory>,
  ids: readonly string[],
): Array<{ a: string; b: string }> | null {
  const links: Array<{ a: string; b: string }> = [];
  for (const id of ids) {
    const duplicates = memories.get(id)?.duplicates;
    if (!duplicates) return null;
    for (const b of duplicates) links.push({ a: id, b });
  }
  return links;
}

/** A loaded memory as the later stages read it (`duplicates`: null when they were not read with it). */
export function loaded(
  { record, isConstraint, similarities }: { record: MemoryRecord; isConstraint: boolean; similarities: number[] },
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
    duplicates,
  };
}
