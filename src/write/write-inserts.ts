import { createHash, randomUUID } from 'node:crypto';
import type { AttributeInsert, ChunkInsert, HistoryInsert, JobInsert, MentionInsert } from '../db/index.js';
import type { JobKind } from '../db/jobs/index.js';
import type { LinkResult } from '../linker/index.js';
import type { Chunk } from './chunk.js';
import type { PreparedMemory } from './prepare.js';

/**
 * Turns a prepared memory into the rows the write queries take. Shared by `remember` and
 * `updateMemory`, so both write the same chunks, links and jobs for the same content. Called
 * before the write transaction: the ids made here are what makes a re-run of it a no-op.
 */

/** The memory properties that follow from its content: what `updateMemory` rewrites. */
export function contentProps(m: PreparedMemory, embeddingModel: string): Record<string, unknown> {
  return {
    name: m.caption,
    content: m.storageContent,
    normalizedContent: m.normalizedContent,
    contentHash: m.contentHash,
    type: m.type,
    tags: m.tags,
    temporal: m.temporal,
    validUntil: m.validUntil,
    embeddingModel,
  };
}

export function chunkInserts(memoryId: string, chunks: readonly Chunk[], vectors: readonly number[][]): ChunkInsert[] {
  return chunks.map((c, i) => ({
    id: randomUUID(),
    memoryId,
    index: c.index,
    text: c.text,
    startChar: c.startChar,
    endChar: c.endChar,
    contentHash: createHash('sha256').update(c.text).digest('hex'),
    embedding: vectors[i]!,
  }));
}

export interface MentionInserts {
  strong: MentionInsert[];
  weak: MentionInsert[];
  attributes: AttributeInsert[];
}

export function mentionInserts(memoryId: string, links: LinkResult): MentionInserts {
  const mention = (e: (typeof links.entities)[number]): MentionInsert => ({
    memoryId,
    entityId: randomUUID(),
    name: e.name,
    canonicalName: e.canonicalName,
    type: e.type,
    mentionText: e.mentionText,
    confidence: e.confidence,
  });
  return {
    strong: links.entities.filter((e) => e.strength === 'strong').map(mention),
    weak: links.entities.filter((e) => e.strength === 'weak').map(mention),
    attributes: links.attributes.map((a) => ({
      id: randomUUID(),
      memoryId,
      entityCanonicalName: a.entityCanonicalName,
      aspectId: randomUUID(),
      aspect: a.aspect,
      aspectCanonicalName: a.aspect.trim().toLowerCase().replace(/\s+/g, ' '),
      content: a.content,
      kind: a.kind,
      importance: a.importance,
    })),
  };
}

export interface JobSettings {
  enqueueExtract: boolean;
  enqueueHints: boolean;
  maxJobAttempts: number;
}

/** The deep-path jobs a stored memory gets, minus kinds listed in `skip`. */
export function jobInserts(memoryId: string, settings: JobSettings, skip: readonly string[] = []): JobInsert[] {
  const kinds: JobKind[] = [...(settings.enqueueExtract ? ['extract' as const] : []), ...(settings.enqueueHints ? ['hints' as const] : [])];
  return kinds
    .filter((kind) => !skip.includes(kind))
    .map((kind) => ({ id: randomUUID(), memoryId, kind, maxAttempts: settings.maxJobAttempts }));
}

export function historyInsert(memoryId: string): HistoryInsert {
  return { id: randomUUID(), memoryId };
}
