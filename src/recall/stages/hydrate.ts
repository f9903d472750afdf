import type { Executor } from '../../db/index.js';
import { type MemoryRecord } from '../../db/index.js';
import { recallMemoryRows, type RecallLoadOptions } from '../../db/search/index.js';
import type { RecallMemory } from '../types.js';

/**
 * Hydration: the candidates' fields for ranking, filtering and budgeting, in one statement
 * (db/search/load-memories.ts), with the question vector's best-chunk similarity (what the
 * rerank and the context gate read). Failure rule: a failure fails the recall (nothing to rank).
 */
export type LoadOptions = RecallLoadOptions;

export type LoadedMemory = RecallMemory & {
  record: MemoryRecord;
  /** Best chunk's similarity to the query vector, (1 + cos) / 2; null without a vector. */
  similarity: number | null;
};

export async function loadRecallMemories(executor: Executor, ids: string[], options: LoadOptions): Promise<Map<string, LoadedMemory>> {
  if (ids.length === 0) return new Map();
  const rows = await recallMemoryRows(executor, ids, options);
  return new Map(
    rows.map(({ record, isConstraint, similarities }) => [
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
        pinned: record.pinned,
        staleReason: record.stale ? (record.staleReason ?? null) : null,
        record,
        similarity: similarities.length > 0 ? Math.max(...similarities) : null,
      },
    ]),
  );
}
