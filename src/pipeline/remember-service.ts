import { createHash, randomUUID } from 'node:crypto';
import type { Executor, TxRunner } from '../db/index.js';
import { nearestMemories } from '../db/queries/chunks.js';
import { findLiveByDedupKeys } from '../db/queries/memories.js';
import { writeMemories, type MemoryInsert } from '../db/queries/remember-write.js';
import { MEMORY_RETURN, type MemoryRecord } from '../db/records.js';
import { MnemographError, ValidationError } from '../errors.js';
import type { Logger } from '../logger.js';
import { bestWholeMemoryMatch, dedupKey as keyFor } from './dedup.js';
import { prepareMemory, type PreparedMemory, type PrepareOptions } from './prepare.js';
import { importanceScore, noveltyScore } from './importance.js';
import { validateRememberInput, type InputLimits, type RememberInput } from './validate-input.js';
import { chunkInserts, contentProps, jobInserts, mentionInserts, type JobSettings } from './write-inserts.js';

export type DedupAction = 'STORED_NEW' | 'DUPLICATE_EXACT' | 'DUPLICATE_SEMANTIC' | 'NEAR_DUPLICATE';

export interface RememberResult {
  memory: MemoryRecord;
  dedup: { action: DedupAction; existingId: string | null; similarity: number | null };
  redactions: Array<{ kind: string; count: number }>;
  tags: string[];
  importance: number;
}

export type BatchOutcome = { index: number; result: RememberResult; error?: undefined } | { index: number; result?: undefined; error: MnemographError };

/** The subset of the embedder the write path needs. */
export interface TextEmbedder {
  readonly modelId: string;
  embed(texts: string[]): Promise<Float32Array[]>;
}

export interface RememberSettings extends InputLimits, PrepareOptions, JobSettings {
  maxBatchSize: number;
  duplicateThreshold: number;
  nearDuplicateThreshold: number;
  minImportanceToStore: number;
}

export interface RememberHooks {
  /** Runs inside the write transaction after every statement, before commit (tests inject failures here). */
  beforeCommit?: (tx: TxRunner) => Promise<void>;
}

export const DEDUP_NEIGHBOURS = 5;

interface Pending {
  index: number;
  prepared: PreparedMemory;
  memoryId: string;
  dedupKey: string;
  vectors: number[][];
  nearDuplicate: { existingId: string; similarity: number } | null;
  importance: number;
}

/**
 * The synchronous write path of DESIGN.md: validate → prepare (normalize, redact, tag, chunk,
 * link) → exact dedup → embed (outside any transaction) → semantic dedup → importance → one
 * write transaction for memory, chunks, vectors, entity links and queued jobs.
 */
export class RememberService {
  constructor(
    private readonly executor: Executor,
    private readonly embedder: TextEmbedder,
    private readonly settings: RememberSettings,
    private readonly logger: Logger,
    private readonly hooks: RememberHooks = {},
  ) {}

  async remember(input: RememberInput): Promise<RememberResult> {
    const [outcome] = await this.rememberBatch([input]);
    if (outcome!.error) throw outcome!.error;
    return outcome!.result!;
  }

  /** `enqueueJobs: false` stores without deep-path jobs (the pipeline's own extracted facts). */
  async rememberBatch(inputs: readonly RememberInput[], options: { enqueueJobs?: boolean } = {}): Promise<BatchOutcome[]> {
    if (inputs.length > this.settings.maxBatchSize) {
      throw new MnemographError('LIMIT_EXCEEDED', `a batch holds at most ${this.settings.maxBatchSize} memories (MAX_BATCH_SIZE); got ${inputs.length}`);
    }
    const outcomes: BatchOutcome[] = [];
    const prepared: Array<{ index: number; prepared: PreparedMemory }> = [];
    inputs.forEach((input, index) => {
      try {
        prepared.push({ index, prepared: prepareMemory(validateRememberInput(input, this.settings), this.settings) });
      } catch (error) {
        outcomes.push({ index, error: asItemError(error) });
      }
    });

    const exact = await this.exactDuplicates(prepared);
    const fresh = prepared.filter((p) => !exact.has(p.index));
    const pending = await this.embedAndDedup(fresh);

    const semantic = pending.filter((p): p is Pending & { duplicateOf: { existingId: string; similarity: number } } => 'duplicateOf' in p);
    const toWrite = pending.filter((p): p is Pending => !('duplicateOf' in p));
    for (const p of toWrite) {
      if (p.importance < this.settings.minImportanceToStore) {
        outcomes.push({ index: p.index, error: new ValidationError(`importance ${p.importance} is below MIN_IMPORTANCE_TO_STORE`) });
      }
    }
    const storable = toWrite.filter((p) => p.importance >= this.settings.minImportanceToStore);

    const duplicateIds = [...new Set([...[...exact.values()].map((e) => e.existingId), ...semantic.map((s) => s.duplicateOf.existingId)])];
    const { written, records } = await this.write(storable, duplicateIds, options.enqueueJobs ?? true);

    const payload = (p: { prepared: PreparedMemory }, memoryId: string, dedup: RememberResult['dedup'], importance: number): RememberResult => ({
      memory: records.get(memoryId)!,
      dedup,
      redactions: p.prepared.redactions,
      tags: p.prepared.tags,
      importance,
    });

    for (const p of prepared) {
      const hit = exact.get(p.index);
      if (hit) outcomes.push({ index: p.index, result: payload(p, hit.existingId, { action: 'DUPLICATE_EXACT', existingId: hit.existingId, similarity: 1 }, records.get(hit.existingId)?.importance ?? 0) });
    }
    for (const s of semantic) {
      outcomes.push({ index: s.index, result: payload(s, s.duplicateOf.existingId, { action: 'DUPLICATE_SEMANTIC', existingId: s.duplicateOf.existingId, similarity: round(s.duplicateOf.similarity) }, records.get(s.duplicateOf.existingId)?.importance ?? 0) });
    }
    for (const p of storable) {
      const id = written.get(p.index)!;
      const raced = id !== p.memoryId; // a concurrent writer stored the same content first
      const dedup: RememberResult['dedup'] = raced
        ? { action: 'DUPLICATE_EXACT', existingId: id, similarity: 1 }
        : p.nearDuplicate
          ? { action: 'NEAR_DUPLICATE', existingId: p.nearDuplicate.existingId, similarity: round(p.nearDuplicate.similarity) }
          : { action: 'STORED_NEW', existingId: null, similarity: null };
      outcomes.push({ index: p.index, result: payload(p, id, dedup, raced ? (records.get(id)?.importance ?? 0) : p.importance) });
    }
    return outcomes.sort((a, b) => a.index - b.index);
  }

  /** Exact duplicates of live memories, and repeats inside this batch (the first one wins). */
  private async exactDuplicates(items: Array<{ index: number; prepared: PreparedMemory }>): Promise<Map<number, { existingId: string }>> {
    const keys = items.map((i) => dedupKey(i.prepared));
    const existing = await findLiveByDedupKeys(this.executor, [...new Set(keys)]);
    const result = new Map<number, { existingId: string }>();
    items.forEach((item, position) => {
      const id = existing.get(keys[position]!);
      if (id) result.set(item.index, { existingId: id });
    });
    return result;
  }

  private async embedAndDedup(items: Array<{ index: number; prepared: PreparedMemory }>): Promise<Array<Pending | (Pending & { duplicateOf: { existingId: string; similarity: number } })>> {
    if (items.length === 0) return [];
    const texts = items.flatMap((i) => i.prepared.chunks.map((c) => c.text));
    const started = performance.now();
    const vectors = (await this.embedder.embed(texts)).map((v) => Array.from(v));
    this.logger.debug({ chunks: texts.length, ms: Math.round(performance.now() - started) }, 'embedded');

    let offset = 0;
    const withVectors = items.map((item) => {
      const count = item.prepared.chunks.length;
      const slice = vectors.slice(offset, offset + count);
      offset += count;
      return { ...item, vectors: slice };
    });

    // One vector query per namespace for all chunks of the batch.
    const byNamespace = groupBy(withVectors, (i) => i.prepared.namespace);
    const neighbours = new Map<number, Array<Array<{ memoryId: string; cosine: number }>>>();
    for (const [namespace, group] of byNamespace) {
      const hits = await nearestMemories(this.executor, namespace, group.flatMap((g) => g.vectors), DEDUP_NEIGHBOURS);
      let at = 0;
      for (const g of group) {
        neighbours.set(g.index, hits.slice(at, at + g.vectors.length));
        at += g.vectors.length;
      }
    }

    const seenInBatch = new Set<string>();
    return withVectors.map((item) => {
      const perChunk = neighbours.get(item.index) ?? [];
      const best = bestWholeMemoryMatch(perChunk);
      const nearest = perChunk[0]?.[0]?.cosine ?? null;
      const importance = importanceScore({ novelty: noveltyScore(nearest), salience: item.prepared.salience });
      const key = dedupKey(item.prepared);
      const base: Pending = { index: item.index, prepared: item.prepared, memoryId: randomUUID(), dedupKey: key, vectors: item.vectors, nearDuplicate: null, importance };
      // A repeat inside the batch: the MERGE in the write reports it as an exact duplicate.
      if (seenInBatch.has(key)) return base;
      seenInBatch.add(key);
      if (best && best.similarity >= this.settings.duplicateThreshold) return { ...base, duplicateOf: best };
      if (best && best.similarity >= this.settings.nearDuplicateThreshold) return { ...base, nearDuplicate: best };
      return base;
    });
  }

  /** The one write transaction. Returns, per batch index, the id of the stored (or raced) memory. */
  /**
   * The one write transaction. Returns, per batch index, the id of the stored (or raced)
   * memory, and the records of everything written or touched, read back inside the transaction.
   */
  private async write(items: Pending[], duplicateIds: string[], enqueueJobs: boolean): Promise<{ written: Map<number, string>; records: Map<string, MemoryRecord> }> {
    const now = new Date().toISOString();
    const byId = new Map(items.map((p) => [p.memoryId, p]));
    const memories: MemoryInsert[] = items.map((p) => ({ ref: p.index, dedupKey: p.dedupKey, props: memoryProps(p, this.embedder.modelId, now) }));
    const result = await this.executor.writeTx('remember', async (tx) => {
      const merged = memories.length
        ? await writeMemories(tx, {
            now,
            memories,
            chunksFor: (id) => chunkInserts(id, byId.get(id)!.prepared.chunks, byId.get(id)!.vectors),
            nearDuplicatesFor: (id) => {
              const near = byId.get(id)!.nearDuplicate;
              return near ? [{ memoryId: id, existingId: near.existingId, similarity: near.similarity }] : [];
            },
            mentionsFor: (id) => mentionInserts(id, byId.get(id)!.prepared.links),
            jobsFor: (id) => (enqueueJobs ? jobInserts(id, this.settings) : []),
          })
        : [];
      const touched = duplicateIds.length ? await touchDuplicates(tx, duplicateIds, now) : [];
      await this.hooks.beforeCommit?.(tx);
      return { merged, touched };
    });
    return {
      written: new Map(result.merged.map((r) => [r.ref, r.id])),
      records: new Map([...result.merged.map((r) => r.memory), ...result.touched].map((m) => [m.id, m])),
    };
  }

}

const TOUCH_DUPLICATES = `
UNWIND $ids AS id
MATCH (m:Memory {id: id})
SET m.lastSeenAt = $now, m.accessCount = coalesce(m.accessCount, 0) + 1
RETURN ${MEMORY_RETURN('m')} AS memory`;

async function touchDuplicates(tx: TxRunner, ids: string[], now: string): Promise<MemoryRecord[]> {
  return (await tx.run<{ memory: MemoryRecord }>(TOUCH_DUPLICATES, { ids, now })).map((r) => r.memory);
}

function dedupKey(prepared: PreparedMemory): string {
  return keyFor(prepared.namespace, prepared.contentHash);
}


function memoryProps(p: Pending, embeddingModel: string, now: string): Record<string, unknown> {
  const m = p.prepared;
  return {
    timelineKey: timelineKey(m.occurredAt, now, p.index),
    ...contentProps(m, embeddingModel),
    id: p.memoryId,
    namespace: m.namespace,
    namespaceToken: namespaceToken(m.namespace),
    importance: p.importance,
    source: m.source,
    externalId: m.externalId,
    sessionId: m.sessionId,
    who: m.who,
    why: m.why,
    occurredAt: m.occurredAt,
    pinned: false,
    metadata: m.metadata,
  };
}

/**
 * The order of memories in time: event time, then record time, then position in the batch, so
 * turns written together in one rememberBatch keep their order. Sortable as a string.
 */
export function timelineKey(occurredAt: string | null, createdAt: string, position: number): string {
  return `${occurredAt ?? createdAt}|${createdAt}|${String(position).padStart(6, '0')}`;
}

/** One opaque Lucene token per namespace (see cypher/004-fulltext-indexes.cypher). */
export function namespaceToken(namespace: string): string {
  return `ns${createHash('sha256').update(namespace).digest('hex').slice(0, 24)}`;
}

function asItemError(error: unknown): MnemographError {
  if (error instanceof MnemographError) return error;
  return new MnemographError('INTERNAL_SERVER_ERROR', (error as Error).message ?? 'unexpected error', { cause: error });
}

function groupBy<T>(items: T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) groups.set(key(item), [...(groups.get(key(item)) ?? []), item]);
  return groups;
}

function round(n: number): number {
  return Math.round(n * 10_000) / 10_000;
}
