import { randomUUID } from 'node:crypto';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type { Executor, TxRunner } from '../db/index.js';
import { nearestMemories, type NearestHit } from '../db/index.js';
import { findLiveByDedupKeys } from '../db/index.js';
import { linkDerived, requireSourceUnchanged, touchDuplicates, type DuplicateTarget } from '../db/index.js';
import { writeMemories, type MemoryInsert, type MemoryRows } from '../db/index.js';
import type { MemoryRecord } from '../db/index.js';
import { LimitExceededError, MnemographError, UnavailableError, ValidationError, type ItemOutcome } from '../errors.js';
import type { Logger } from '../logger.js';
import { namespaceToken, type TextCleanup } from '../text/index.js';
import { batchNeighbours, mergeNeighbours, type BatchMemory } from './batch-dedup.js';
import { bestWholeMemoryMatch, dedupKey as keyFor } from './dedup-key.js';
import { echoedMemories, planEchoes, recordEchoPlans, type EchoInfo } from './echo-guard.js';
import { prepareMemory, type PreparedMemory, type PrepareOptions } from './prepare.js';
import { DOCUMENT_CHUNK_IMPORTANCE, importanceScore, noveltyScore } from './importance.js';
import { validateRememberInput, type InputLimits, type RememberInput, type ValidatedInput } from './validate-input.js';
import { chunkInserts, contentProps, historyInsert, jobInserts, mentionInserts, type JobSettings } from './write-inserts.js';

export type DedupAction = 'STORED_NEW' | 'DUPLICATE_EXACT' | 'DUPLICATE_SEMANTIC' | 'NEAR_DUPLICATE' | 'ECHO';

export interface RememberResult {
  memory: MemoryRecord;
  dedup: { action: DedupAction; existingId: string | null; similarity: number | null };
  redactions: Array<{ kind: string; count: number }>;
  /** Characters removed or replaced to make the input well-formed text (src/text/well-formed.ts). */
  textCleanup: TextCleanup;
  tags: string[];
  importance: number;
  /** The echo guard (echo-guard.ts): the lines that repeated memories of the namespace; absent when none did. */
  echo?: EchoInfo;
}

/** One item of rememberBatch: its memory or its own error. */
export type BatchOutcome = ItemOutcome<RememberResult>;

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

export const DEDUP_NEIGHBOURS = 5;
/** Rounds of dedup-then-write when the duplicate a round found changed before its write. */
export const MAX_DEDUP_ROUNDS = 3;

/** The memory a batch is derived from (the deep path's source): it must be unchanged at write time. */
export interface DerivedFrom {
  memoryId: string;
  contentHash: string;
}

export interface RememberBatchOptions {
  /** `false` stores without deep-path jobs (the pipeline's own extracted facts). */
  enqueueJobs?: boolean;
  /** Embeds this batch instead of the service's embedder (the deep path's content-hash cache: each fact embedded once). */
  embedder?: TextEmbedder;
  /** Checked inside the write transaction; stored memories are linked EXTRACTED_FROM it. */
  derivedFrom?: DerivedFrom;
  /**
   * Who wrote it, as the server knows it (the API key's name, the pipeline): stored as
   * `Memory.actor` and the `created` event's actor. The caller's `who` is only its claim.
   */
  actor?: string;
  /** Runs the write transaction, then rolls it back: nothing is stored (start-up warm-up: every statement of the path planned). */
  rollBack?: boolean;
}

/** The actor of writes that name none (tests, tools without a principal). */
export const DEFAULT_ACTOR = 'api';

type Item = { index: number; prepared: PreparedMemory; input: ValidatedInput };

interface Pending {
  index: number;
  prepared: PreparedMemory;
  memoryId: string;
  dedupKey: string;
  vectors: number[][];
  nearDuplicate: { existingId: string; similarity: number } | null;
  importance: number;
}

/** A dedup decision to confirm inside the write transaction: the target must still hold this content. */
interface DuplicateOf {
  item: Item;
  action: 'DUPLICATE_EXACT' | 'DUPLICATE_SEMANTIC';
  existingId: string;
  contentHash: string;
  similarity: number;
  /** The target is an earlier item of the same batch, created by this write: confirmed after it. */
  inBatch?: boolean;
}

/**
 * The synchronous write path (docs/architecture.md, "The write path"): validate → prepare (normalize, redact, tag, chunk,
 * link) → exact dedup → embed (outside any transaction) → semantic dedup → importance → one
 * write transaction for memory, chunks, vectors, entity links and queued jobs.
 *
 * Dedup is decided before the transaction and confirmed inside it: a duplicate whose target was
 * forgotten or rewritten meanwhile goes through the path again instead of being answered as a
 * duplicate of something that no longer holds the content.
 */
export class RememberService {
  constructor(
    private readonly executor: Executor,
    private readonly embedder: TextEmbedder,
    private readonly settings: RememberSettings,
    private readonly logger: Logger,
  ) {}

  async remember(input: RememberInput, options: Pick<RememberBatchOptions, 'actor'> = {}): Promise<RememberResult> {
    const [outcome] = await this.rememberBatch([input], options);
    if (outcome!.error) throw outcome!.error;
    return outcome!.result!;
  }

  async rememberBatch(inputs: readonly RememberInput[], options: RememberBatchOptions = {}): Promise<BatchOutcome[]> {
    checkBatchSize(inputs.length, this.settings.maxBatchSize);
    const outcomes: BatchOutcome[] = [];
    let todo: Item[] = [];
    for (const [index, input] of inputs.entries()) {
      // Preparing a long item takes tens of milliseconds: yield between items so a big batch
      // does not hold the event loop (and every other tenant's requests) for seconds.
      if (index > 0) await yieldToEventLoop();
      try {
        const validated = validateRememberInput(input, this.settings);
        todo.push({ index, prepared: prepareMemory(validated, this.settings), input: validated });
      } catch (error) {
        outcomes.push({ index, error: asItemError(error) });
      }
    }
    // No memory from memory: the deep path's own facts are checked by exact dedup alone.
    const echoes = new Map<number, EchoInfo>();
    if (!options.derivedFrom) todo = await this.guardEchoes(todo, outcomes, echoes, options.actor ?? DEFAULT_ACTOR);

    for (let round = 1; todo.length > 0; round += 1) {
      if (round > MAX_DEDUP_ROUNDS) {
        for (const item of todo)
          outcomes.push({
            index: item.index,
            error: new UnavailableError('the memory this content duplicates kept changing during the write; try again'),
          });
        break;
      }
      const result = await this.round(todo, options, round);
      outcomes.push(...result.outcomes);
      todo = result.stale;
    }
    return outcomes
      .map((o) => (o.result && echoes.has(o.index) ? { index: o.index, result: { ...o.result, echo: echoes.get(o.index)! } } : o))
      .sort((a, b) => a.index - b.index);
  }

  /**
   * The echo guard (echo-guard.ts), at one place: an item whose lines repeat memories of its
   * namespace goes on with its new lines only (prepared again), or, with nothing new, is answered
   * with the first memory it repeats (action ECHO) and stores nothing. Each is recorded.
   */
  private async guardEchoes(todo: Item[], outcomes: BatchOutcome[], echoes: Map<number, EchoInfo>, actor: string): Promise<Item[]> {
    const plans = await planEchoes(
      this.executor,
      todo.map((i) => i.prepared),
    );
    if (plans.size === 0) return todo;
    const records = await echoedMemories(
      this.executor,
      [...plans.values()].filter((p) => p.remainder === null).map((p) => p.echo.memoryIds[0]!),
    );
    const kept: Item[] = [];
    todo.forEach((item, position) => {
      const plan = plans.get(position);
      const repeated = plan?.remainder === null ? records.get(plan.echo.memoryIds[0]!) : undefined;
      if (!plan || (plan.remainder === null && !repeated)) {
        kept.push(item);
        return;
      }
      echoes.set(item.index, plan.echo);
      if (plan.remainder !== null) {
        const input = { ...item.input, content: plan.remainder };
        kept.push({ index: item.index, input, prepared: prepareMemory(input, this.settings) });
        return;
      }
      outcomes.push({
        index: item.index,
        result: {
          memory: repeated!,
          dedup: { action: 'ECHO', existingId: repeated!.id, similarity: 1 },
          redactions: item.prepared.redactions,
          textCleanup: item.prepared.cleanup,
          tags: item.prepared.tags,
          importance: repeated!.importance,
        },
      });
    });
    await recordEchoPlans(
      this.executor,
      [...echoes.values()].map((echo) => ({ echo, actor })),
    );
    return kept;
  }

  /** One pass of dedup and write. Items whose duplicate changed before the write come back as `stale`. */
  private async round(items: Item[], options: RememberBatchOptions, round: number): Promise<{ outcomes: BatchOutcome[]; stale: Item[] }> {
    const outcomes: BatchOutcome[] = [];
    const embedder = options.embedder ?? this.embedder;
    // A single memory is embedded while the exact-dedup read runs: that read's round trips leave
    // the latency of `remember` (a duplicate's embedding is wasted). A batch keeps the read first,
    // so a retried batch of duplicates costs no model time.
    const early = items.length === 1 ? this.embedTexts(items, embedder) : undefined;
    early?.catch(() => undefined); // awaited below unless the read fails first
    const exact = await this.exactDuplicates(items);
    const pending = await this.embedAndDedup(
      items.filter((p) => !exact.has(p.index)),
      embedder,
      exact.size === 0 ? early : undefined,
    );

    const duplicates: DuplicateOf[] = [...exact.values()];
    const toWrite: Pending[] = [];
    for (const p of pending) {
      if ('duplicateOf' in p) duplicates.push(p.duplicateOf);
      else if (p.importance < this.settings.minImportanceToStore && p.prepared.type !== 'document_chunk') {
        outcomes.push({ index: p.index, error: new ValidationError(`importance ${p.importance} is below MIN_IMPORTANCE_TO_STORE`) });
      } else toWrite.push(p);
    }

    const { written, records, confirmed } = await this.write(toWrite, duplicates, options);

    const payload = (
      p: { prepared: PreparedMemory },
      memoryId: string,
      dedup: RememberResult['dedup'],
      importance: number,
    ): RememberResult => ({
      memory: records.get(memoryId)!,
      dedup,
      redactions: p.prepared.redactions,
      textCleanup: p.prepared.cleanup,
      tags: p.prepared.tags,
      importance,
    });

    const stale: Item[] = [];
    for (const d of duplicates) {
      if (!confirmed.has(d.item.index)) {
        stale.push(d.item);
        continue;
      }
      const dedup = { action: d.action, existingId: d.existingId, similarity: round4(d.similarity) };
      outcomes.push({ index: d.item.index, result: payload(d.item, d.existingId, dedup, records.get(d.existingId)?.importance ?? 0) });
    }
    if (stale.length) this.logger.debug({ stale: stale.length, round }, 'duplicate targets changed before the write; deduplicating again');
    for (const p of toWrite) {
      const { id, nearLinked } = written.get(p.index)!;
      const raced = id !== p.memoryId; // a concurrent writer stored the same content first
      const dedup: RememberResult['dedup'] = raced
        ? { action: 'DUPLICATE_EXACT', existingId: id, similarity: 1 }
        : p.nearDuplicate && nearLinked
          ? { action: 'NEAR_DUPLICATE', existingId: p.nearDuplicate.existingId, similarity: round4(p.nearDuplicate.similarity) }
          : { action: 'STORED_NEW', existingId: null, similarity: null };
      outcomes.push({ index: p.index, result: payload(p, id, dedup, raced ? (records.get(id)?.importance ?? 0) : p.importance) });
    }
    return { outcomes, stale };
  }

  /** Exact duplicates of live memories. Repeats inside the batch are left to the write's MERGE. */
  private async exactDuplicates(items: Item[]): Promise<Map<number, DuplicateOf>> {
    const keys = items.map((i) => dedupKey(i.prepared));
    const existing = await findLiveByDedupKeys(this.executor, [...new Set(keys)]);
    const result = new Map<number, DuplicateOf>();
    items.forEach((item, position) => {
      const id = existing.get(keys[position]!);
      if (id)
        result.set(item.index, { item, action: 'DUPLICATE_EXACT', existingId: id, contentHash: item.prepared.contentHash, similarity: 1 });
    });
    return result;
  }

  private async embedTexts(items: Item[], embedder: TextEmbedder): Promise<number[][]> {
    const texts = items.flatMap((i) => i.prepared.chunks.map((c) => c.text));
    const started = performance.now();
    const vectors = (await embedder.embed(texts)).map((v) => Array.from(v));
    this.logger.debug({ chunks: texts.length, ms: Math.round(performance.now() - started) }, 'embedded');
    return vectors;
  }

  /** `embedded`: the vectors of exactly these items, when already under way. */
  private async embedAndDedup(
    items: Item[],
    embedder: TextEmbedder,
    embedded?: Promise<number[][]>,
  ): Promise<Array<Pending | (Pending & { duplicateOf: DuplicateOf })>> {
    if (items.length === 0) return [];
    const withVectors = withChunkVectors(items, await (embedded ?? this.embedTexts(items, embedder)));
    const neighbours = await this.storedNeighbours(withVectors);

    // In batch order, each item is compared with what is stored and with the earlier items of the
    // batch that will be stored (batch-dedup.ts): the outcome of sending them one by one.
    const seenInBatch = new Set<string>();
    const storedInBatch = new Map<string, BatchMemory[]>();
    return withVectors.map((item) => {
      const namespace = item.prepared.namespace;
      const earlier = storedInBatch.get(namespace) ?? [];
      const perChunk = mergeNeighbours(
        neighbours.get(item.index) ?? [],
        batchNeighbours(item.vectors, earlier, DEDUP_NEIGHBOURS),
        DEDUP_NEIGHBOURS,
      );
      const inBatch = new Set(earlier.map((m) => m.memoryId));
      const best = bestWholeMemoryMatch(perChunk);
      const nearest = perChunk[0]?.[0]?.cosine ?? null;
      // A document's chunk takes the design's fixed 0.3 (docs/deviations.md): a page of reference text
      // ranks under what an agent chose to remember, however novel its words are.
      const importance =
        item.prepared.type === 'document_chunk'
          ? DOCUMENT_CHUNK_IMPORTANCE
          : importanceScore({ novelty: noveltyScore(nearest), salience: item.prepared.salience });
      const key = dedupKey(item.prepared);
      const base: Pending = {
        index: item.index,
        prepared: item.prepared,
        memoryId: randomUUID(),
        dedupKey: key,
        vectors: item.vectors,
        nearDuplicate: null,
        importance,
      };
      // A repeat inside the batch: the MERGE in the write reports it as an exact duplicate.
      if (seenInBatch.has(key)) return base;
      seenInBatch.add(key);
      if (best && best.similarity >= this.settings.duplicateThreshold) {
        const contentHash = perChunk.flat().find((h) => h.memoryId === best.existingId)!.contentHash;
        return {
          ...base,
          duplicateOf: {
            item,
            action: 'DUPLICATE_SEMANTIC' as const,
            existingId: best.existingId,
            contentHash,
            similarity: best.similarity,
            inBatch: inBatch.has(best.existingId),
          },
        };
      }
      const pending = best && best.similarity >= this.settings.nearDuplicateThreshold ? { ...base, nearDuplicate: best } : base;
      if (importance >= this.settings.minImportanceToStore)
        storedInBatch.set(namespace, [
          ...earlier,
          { memoryId: base.memoryId, contentHash: item.prepared.contentHash, vectors: item.vectors },
        ]);
      return pending;
    });
  }

  /** Each item's nearest stored memories per chunk: one vector query per namespace for all chunks of the batch. */
  private async storedNeighbours(items: ReadonlyArray<Item & { vectors: number[][] }>): Promise<Map<number, NearestHit[][]>> {
    const neighbours = new Map<number, NearestHit[][]>();
    for (const [namespace, group] of groupBy(items, (i) => i.prepared.namespace)) {
      const hits = await nearestMemories(
        this.executor,
        namespace,
        group.flatMap((g) => g.vectors),
        DEDUP_NEIGHBOURS,
      );
      let at = 0;
      for (const g of group) {
        neighbours.set(g.index, hits.slice(at, at + g.vectors.length));
        at += g.vectors.length;
      }
    }
    return neighbours;
  }

  /**
   * The one write transaction. Every id it writes is made here, before it, so a re-run of the
   * transaction (the driver retries one whose COMMIT reply was lost) writes nothing twice.
   * Returns, per batch index, the id of the stored (or raced) memory, which duplicate decisions
   * held, and the records of everything written or touched, read back inside the transaction.
   */
  private async write(
    items: Pending[],
    duplicates: DuplicateOf[],
    options: RememberBatchOptions,
  ): Promise<{ written: Map<number, { id: string; nearLinked: boolean }>; records: Map<string, MemoryRecord>; confirmed: Set<number> }> {
    const now = new Date().toISOString();
    const writeId = randomUUID();
    const enqueueJobs = options.enqueueJobs ?? true;
    const memories: MemoryInsert[] = items.map((p) => ({
      ref: p.index,
      dedupKey: p.dedupKey,
      props: memoryProps(p, this.embedder.modelId, now, options.actor ?? DEFAULT_ACTOR),
    }));
    const rows = new Map<string, MemoryRows>(
      items.map((p) => [
        p.memoryId,
        {
          chunks: chunkInserts(p.memoryId, p.prepared.chunks, p.vectors),
          mentions: mentionInserts(p.memoryId, p.prepared.links),
          nearDuplicates: p.nearDuplicate
            ? [{ memoryId: p.memoryId, existingId: p.nearDuplicate.existingId, similarity: p.nearDuplicate.similarity }]
            : [],
          jobs: enqueueJobs ? jobInserts(p.memoryId, this.settings) : [],
          created: historyInsert(p.memoryId),
        },
      ]),
    );
    const target = (d: DuplicateOf): DuplicateTarget => ({ ref: d.item.index, id: d.existingId, contentHash: d.contentHash });
    const targets = duplicates.filter((d) => !d.inBatch).map(target);
    // Duplicates of an earlier item of this batch: confirmed (and the item touched) once it is written.
    const batchTargets = duplicates.filter((d) => d.inBatch).map(target);
    const derivedFrom = options.derivedFrom;

    const result = await writeOrRollBack(this.executor, options.rollBack === true, async (tx) => {
      if (derivedFrom) await requireSourceUnchanged(tx, derivedFrom);
      const touched = await touchDuplicates(tx, targets, { now, writeId });
      const merged = memories.length ? await writeMemories(tx, { now, writeId, memories, rows }) : [];
      touched.push(...(await touchDuplicates(tx, batchTargets, { now, writeId })));
      if (derivedFrom)
        await linkDerived(
          tx,
          derivedFrom.memoryId,
          merged.filter((m) => m.created).map((m) => m.id),
          now,
        );
      return { merged, touched };
    });
    return {
      written: new Map(result.merged.map((r) => [r.ref, { id: r.id, nearLinked: r.nearLinked }])),
      records: new Map([...result.merged.map((r) => r.memory), ...result.touched.map((t) => t.memory)].map((m) => [m.id, m])),
      confirmed: new Set(result.touched.map((t) => t.ref)),
    };
  }
}

/** Thrown out of a transaction to roll it back, carrying what the transaction computed. */
class RollBack<T> extends Error {
  constructor(readonly result: T) {
    super('rolled back on purpose');
  }
}

/** `remember`'s write transaction, committed — or, with `rollBack`, run and rolled back. */
async function writeOrRollBack<T>(executor: Executor, rollBack: boolean, work: (tx: TxRunner) => Promise<T>): Promise<T> {
  if (!rollBack) return executor.writeTx('remember', work);
  try {
    await executor.writeTx('remember', async (tx) => {
      throw new RollBack(await work(tx));
    });
  } catch (error) {
    if (error instanceof RollBack) return error.result as T;
    throw error;
  }
  throw new Error('unreachable: a rolled-back transaction returned');
}

/** The batch's vectors (all chunks of all items, in order) handed back to their items. */
function withChunkVectors(items: readonly Item[], vectors: number[][]): Array<Item & { vectors: number[][] }> {
  let offset = 0;
  return items.map((item) => {
    const count = item.prepared.chunks.length;
    const slice = vectors.slice(offset, offset + count);
    offset += count;
    return { ...item, vectors: slice };
  });
}

/** The one check that refuses a batch whole (besides the request's own size and cost limits). */
export function checkBatchSize(count: number, max: number): void {
  if (count > max)
    throw new LimitExceededError(`a batch holds at most ${max} memories (MAX_BATCH_SIZE); got ${count}`, { field: 'inputs', max });
}

function dedupKey(prepared: PreparedMemory): string {
  return keyFor(prepared.namespace, prepared.contentHash);
}

function memoryProps(p: Pending, embeddingModel: string, now: string, actor: string): Record<string, unknown> {
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
    actor,
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

function asItemError(error: unknown): MnemographError {
  if (error instanceof MnemographError) return error;
  return new MnemographError('INTERNAL', (error as Error).message ?? 'unexpected error', { cause: error });
}

function groupBy<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) groups.set(key(item), [...(groups.get(key(item)) ?? []), item]);
  return groups;
}

function round4(n: number): number {
  return Math.round(n * 10_000) / 10_000;
}
