import { randomUUID } from 'node:crypto';
import type { Executor } from '../db/index.js';
import { nearestMemories } from '../db/index.js';
import { forgetMemory, forgetReason, replaceMemoryContent, setPinned } from '../db/index.js';
import { findLiveByDedupKeys, memoriesByIds } from '../db/index.js';
import type { MemoryRecord } from '../db/index.js';
import { NotFoundError, ValidationError } from '../errors.js';
import type { Logger } from '../logger.js';
import { bestWholeMemoryMatch, dedupKey } from './dedup-key.js';
import { importanceScore, noveltyScore } from './importance.js';
import { prepareMemory, type PreparedMemory } from './prepare.js';
import { DEDUP_NEIGHBOURS, type RememberSettings, type TextEmbedder } from './remember-service.js';
import { validateRememberInput } from './validate-input.js';
import type { MemoryType } from './importance.js';
import { chunkInserts, contentProps, jobInserts, mentionInserts } from './write-inserts.js';

export type UpdateSettings = Omit<RememberSettings, 'maxBatchSize' | 'minImportanceToStore'>;

export interface UpdateInput {
  id: string;
  /** The memory's namespace, already checked against the caller's key. */
  namespace: string;
  content: string;
  /** Who asked (recorded in history). */
  actor: string;
}

/**
 * `updateMemory`: the write path of `remember` run again on new content for an existing memory.
 * Redaction, chunking, embedding and dedup happen first, outside any transaction; then one
 * transaction swaps chunks, vectors, links and content, audits the old content and queues
 * extraction. The memory keeps its id and its other fields (type, tags, provenance, times).
 */
export class UpdateService {
  constructor(
    private readonly executor: Executor,
    private readonly embedder: TextEmbedder,
    private readonly settings: UpdateSettings,
    private readonly logger: Logger,
  ) {}

  async update(input: UpdateInput): Promise<MemoryRecord> {
    const current = await this.load(input);
    if (current.deletedAt) {
      throw new ValidationError(`memory ${input.id} is forgotten; remember the content as a new memory instead`, { id: input.id });
    }
    const prepared = this.prepare(current, input.content);
    if (prepared.contentHash === current.contentHash) return current; // same content: nothing to redo

    const key = dedupKey(input.namespace, prepared.contentHash);
    const owner = (await findLiveByDedupKeys(this.executor, [key])).get(key);
    if (owner && owner !== input.id) {
      throw new ValidationError(`the new content duplicates memory ${owner}`, { field: 'content', existingId: owner });
    }

    const vectors = (await this.embedder.embed(prepared.chunks.map((c) => c.text))).map((v) => Array.from(v));
    const others = (await nearestMemories(this.executor, input.namespace, vectors, DEDUP_NEIGHBOURS + 1)).map((hits) =>
      hits.filter((h) => h.memoryId !== input.id),
    );
    const best = bestWholeMemoryMatch(others);
    if (best && best.similarity >= this.settings.duplicateThreshold) {
      throw new ValidationError(`the new content duplicates memory ${best.existingId}`, {
        field: 'content',
        existingId: best.existingId,
        similarity: best.similarity,
      });
    }
    const near = best && best.similarity >= this.settings.nearDuplicateThreshold ? best : null;
    const importance = importanceScore({ novelty: noveltyScore(others[0]?.[0]?.cosine ?? null), salience: prepared.salience });

    // Every id is made here, before the transaction, so a re-run of it writes nothing twice.
    const replacement = {
      id: input.id,
      namespace: input.namespace,
      actor: input.actor,
      now: new Date().toISOString(),
      dedupKey: key,
      props: { ...contentProps(prepared, this.embedder.modelId), importance },
      chunks: chunkInserts(input.id, prepared.chunks, vectors),
      nearDuplicates: near ? [{ memoryId: input.id, existingId: near.existingId, similarity: near.similarity }] : [],
      links: mentionInserts(input.id, prepared.links),
      jobs: jobInserts(input.id, this.settings),
      eventId: randomUUID(),
    };
    const replaced = await this.executor.writeTx('memory.update', (tx) => replaceMemoryContent(tx, replacement));
    if (!replaced) throw new NotFoundError('memory', input.id); // forgotten or deleted meanwhile
    this.logger.debug({ memoryId: input.id, chunks: prepared.chunks.length }, 'memory updated');
    return this.load(input);
  }

  /** Soft-deletes a memory of `namespace` (recorded in its history); null when it is not there. */
  forget(ref: { id: string; namespace: string; actor: string }, reason: string | null | undefined): Promise<MemoryRecord | null> {
    return forgetMemory(this.executor, ref, forgetReason(reason));
  }

  /** Pins or unpins a memory of `namespace` (recorded when it changes); null when it is not there. */
  pin(ref: { id: string; namespace: string; actor: string }, pinned: boolean): Promise<MemoryRecord | null> {
    return setPinned(this.executor, ref, pinned);
  }

  private async load(input: UpdateInput): Promise<MemoryRecord> {
    const [memory] = await memoriesByIds(this.executor, [input.id], [input.namespace]);
    if (!memory) throw new NotFoundError('memory', input.id);
    return memory;
  }

  /** Only the content is new: the other inputs of the write path come from the stored memory. */
  private prepare(current: MemoryRecord, content: string): PreparedMemory {
    const validated = validateRememberInput({ content, namespace: current.namespace }, this.settings);
    return prepareMemory(
      {
        ...validated,
        type: current.type as MemoryType,
        occurredAt: current.occurredAt,
        sessionId: current.sessionId,
        source: current.source,
        externalId: current.externalId,
        who: current.who,
        why: current.why,
        tags: current.tags,
        metadata: current.metadata,
      },
      this.settings,
    );
  }
}
