import type { Executor, TxRunner } from '../executor.js';
import { CHUNK_RETURN, MEMORY_RETURN, type ChunkRecord, type MemoryRecord } from '../records.js';

export const LIVE_BY_DEDUP_KEYS = `
UNWIND $keys AS key
MATCH (m:Memory {dedupKey: key})
RETURN key, m.id AS id`;

export const BY_IDS = `
UNWIND $ids AS id
MATCH (m:Memory {id: id})
WHERE m.namespace IN $namespaces OR $anyNamespace
RETURN ${MEMORY_RETURN('m')} AS memory`;

export const CHUNKS_BY_MEMORY_IDS = `
UNWIND $ids AS id
MATCH (m:Memory {id: id})-[:HAS_CHUNK]->(c:Chunk)
RETURN ${CHUNK_RETURN('c', 'm')} AS chunk
ORDER BY chunk.memoryId, chunk.index`;

// One flush per batch id: a re-run after a lost COMMIT reply finds the id recorded and adds nothing.
export const TOUCH_ACCESSED = `
UNWIND $rows AS row
MATCH (m:Memory {id: row.id})
WHERE coalesce(m.accessFlushId, '') <> $flushId
SET m.accessFlushId = $flushId,
    m.accessCount = coalesce(m.accessCount, 0) + row.count,
    m.lastAccessed = CASE WHEN m.lastAccessed IS NULL OR m.lastAccessed < row.at THEN row.at ELSE m.lastAccessed END`;

export const SOURCE_MEMORY = `
MATCH (m:Memory {id: $id})
RETURN m.id AS id, m.namespace AS namespace, m.content AS content, m.contentHash AS contentHash, m.source AS source,
       m.sessionId AS sessionId, m.occurredAt AS occurredAt, m.deletedAt IS NOT NULL AS forgotten`;

/** Which of these dedup keys already belong to a live memory. */
export async function findLiveByDedupKeys(executor: Executor, keys: string[]): Promise<Map<string, string>> {
  if (keys.length === 0) return new Map();
  const rows = await executor.read<{ key: string; id: string }>('memories.by-dedup-keys', LIVE_BY_DEDUP_KEYS, { keys });
  return new Map(rows.map((r) => [r.key, r.id]));
}

/** Memories by id restricted to readable namespaces (`null` = any). Missing ids are absent. */
export async function memoriesByIds(
  executor: Executor,
  ids: readonly string[],
  namespaces: readonly string[] | null,
): Promise<MemoryRecord[]> {
  if (ids.length === 0) return [];
  const rows = await executor.read<{ memory: MemoryRecord }>('memories.by-ids', BY_IDS, {
    ids,
    namespaces: namespaces ?? [],
    anyNamespace: namespaces === null,
  });
  return rows.map((r) => r.memory);
}

export async function chunksByMemoryIds(executor: Executor, ids: readonly string[]): Promise<ChunkRecord[]> {
  if (ids.length === 0) return [];
  const rows = await executor.read<{ chunk: ChunkRecord }>('memories.chunks', CHUNKS_BY_MEMORY_IDS, { ids });
  return rows.map((r) => r.chunk);
}

export interface AccessRow {
  id: string;
  count: number;
  /** ISO time of the latest access in the batch. */
  at: string;
}

/** Adds batched access counts; `flushId` makes the transaction safe to run twice. */
export async function touchAccessed(executor: Executor, rows: readonly AccessRow[], flushId: string): Promise<void> {
  if (rows.length === 0) return;
  await executor.write('memories.touch-accessed', TOUCH_ACCESSED, { rows, flushId });
}

/** A job's memory as the deep path reads it, forgotten or not. */
export interface SourceMemoryRow {
  id: string;
  namespace: string;
  content: string;
  contentHash: string;
  source: string | null;
  sessionId: string | null;
  occurredAt: string | null;
  forgotten: boolean;
}

/** The memory a leased job works on, or null when no such memory is visible to this read. */
export async function sourceMemory(executor: Executor, id: string): Promise<SourceMemoryRow | null> {
  const rows = await executor.read<SourceMemoryRow & Record<string, unknown>>('worker.source-memory', SOURCE_MEMORY, { id });
  return rows[0] ?? null;
}

// The fact that replaces a memory never supersedes itself or the memory it was extracted from.
export const RETIRE_TARGET_MEMORIES = `
UNWIND $retirements AS r
MATCH (old:Memory {id: r.targetMemoryId})
WHERE old.deletedAt IS NULL AND old.supersededAt IS NULL AND old.id <> $sourceMemoryId AND old.id <> coalesce(r.newMemoryId, '')
SET old.supersededAt = $now, old.validTo = $now, old.supersededBy = r.newMemoryId, old.updatedAt = $now
WITH r, old
CALL (r, old) {
  MATCH (newer:Memory {id: r.newMemoryId})
  MERGE (newer)-[s:SUPERSEDES]->(old)
    ON CREATE SET s.method = toLower(r.action), s.reason = r.reason, s.at = $now
}
RETURN old.id AS id`;

/**
 * In the deep path's graph transaction: the memories an UPDATE/DELETE decision retires, marked
 * superseded (by the fact that replaces them, for an UPDATE). Returns the ids marked.
 */
export async function retireTargetMemories(
  tx: TxRunner,
  p: {
    namespace: string;
    now: string;
    writeId: string;
    sourceMemoryId: string;
    retirements: ReadonlyArray<{ targetMemoryId: string; action: string; reason: string; newMemoryId: string | null }>;
  },
): Promise<string[]> {
  return (await tx.run<{ id: string }>(RETIRE_TARGET_MEMORIES, { ...p })).map((r) => r.id);
}
