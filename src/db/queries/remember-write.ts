import type { TxRunner } from '../executor.js';
import { MEMORY_RETURN, type ChunkRecord, type MemoryRecord } from '../records.js';

/**
 * The write half of `remember`: everything for a batch of prepared memories in one managed
 * transaction. Exact dedup is enforced here too (MERGE on the unique dedupKey), so two
 * concurrent writers of the same content still produce one memory.
 */

export interface MemoryInsert {
  ref: number;
  dedupKey: string;
  props: Record<string, unknown>;
}

export interface ChunkInsert extends ChunkRecord {
  embedding: number[];
}

export interface MentionInsert {
  memoryId: string;
  entityId: string;
  name: string;
  canonicalName: string;
  type: string;
  mentionText: string;
  confidence: number;
}

export interface AttributeInsert {
  id: string;
  memoryId: string;
  entityCanonicalName: string;
  aspectId: string;
  aspect: string;
  aspectCanonicalName: string;
  content: string;
  kind: string;
  importance: number;
}

export interface NearDuplicateLink {
  memoryId: string;
  existingId: string;
  similarity: number;
}

export interface JobInsert {
  id: string;
  memoryId: string;
  kind: string;
  maxAttempts: number;
}

const MERGE_MEMORIES = `
UNWIND $memories AS m
MERGE (mem:Memory {dedupKey: m.dedupKey})
  ON CREATE SET mem += m.props, mem.createdAt = $now, mem.updatedAt = $now, mem.accessCount = 0
  ON MATCH SET mem.lastSeenAt = $now, mem.accessCount = coalesce(mem.accessCount, 0) + 1
RETURN m.ref AS ref, mem.id AS id, mem.id = m.props.id AS created, ${MEMORY_RETURN('mem')} AS memory`;

const CREATE_CHUNKS = `
UNWIND $chunks AS c
MATCH (mem:Memory {id: c.memoryId})
CREATE (mem)-[:HAS_CHUNK]->(ch:Chunk {
  id: c.id, namespace: mem.namespace, index: c.index, text: c.text,
  startChar: c.startChar, endChar: c.endChar, contentHash: c.contentHash,
  name: 'chunk ' + toString(c.index) + ' of ' + mem.name })
WITH ch, c
CALL db.create.setNodeVectorProperty(ch, 'embedding', c.embedding)`;

const LINK_NEAR_DUPLICATES = `
UNWIND $links AS l
MATCH (mem:Memory {id: l.memoryId}), (old:Memory {id: l.existingId})
MERGE (mem)-[d:DUPLICATE_OF]->(old)
SET d.similarity = l.similarity, d.kind = 'near', d.at = $now`;

// Strong mentions create the entity when missing; weak ones only link to existing entities,
// because entities from every capitalised word are the known failure of regex linkers.
const MERGE_STRONG_MENTIONS = `
UNWIND $mentions AS x
MATCH (mem:Memory {id: x.memoryId})
MERGE (e:Entity {namespace: mem.namespace, canonicalName: x.canonicalName})
  ON CREATE SET e.id = x.entityId, e.name = x.name, e.type = x.type, e.mentions = 0,
                e.createdAt = $now, e.namespaceToken = mem.namespaceToken
SET e.mentions = e.mentions + 1, e.updatedAt = $now
MERGE (mem)-[r:MENTIONS]->(e)
SET r.mentionText = x.mentionText, r.confidence = x.confidence`;

const LINK_WEAK_MENTIONS = `
UNWIND $mentions AS x
MATCH (mem:Memory {id: x.memoryId})
MATCH (e:Entity {namespace: mem.namespace, canonicalName: x.canonicalName})
SET e.mentions = e.mentions + 1, e.updatedAt = $now
MERGE (mem)-[r:MENTIONS]->(e)
SET r.mentionText = x.mentionText, r.confidence = x.confidence`;

const CREATE_ATTRIBUTES = `
UNWIND $attributes AS a
MATCH (mem:Memory {id: a.memoryId})
MATCH (e:Entity {namespace: mem.namespace, canonicalName: a.entityCanonicalName})
MERGE (asp:Aspect {entityId: e.id, canonicalName: a.aspectCanonicalName})
  ON CREATE SET asp.id = a.aspectId, asp.name = a.aspect, asp.weight = 1.0,
                asp.namespace = mem.namespace, asp.createdAt = $now
MERGE (e)-[:HAS_ASPECT]->(asp)
CREATE (asp)-[:HAS_ATTRIBUTE]->(attr:Attribute {
  id: a.id, namespace: mem.namespace, content: a.content, name: left(a.content, 60),
  kind: a.kind, importance: a.importance, confidence: 1.0, status: 'active',
  validFrom: $now, createdBy: 'inline-linker' })
CREATE (attr)-[:FROM]->(mem)`;

const CREATE_JOBS = `
UNWIND $jobs AS j
MATCH (mem:Memory {id: j.memoryId})
CREATE (job:Job {
  id: j.id, namespace: mem.namespace, kind: j.kind, status: 'pending', attempts: 0,
  maxAttempts: j.maxAttempts, availableAt: $now, createdAt: $now, updatedAt: $now,
  name: j.kind + ' ' + left(mem.id, 8) })-[:FOR]->(mem)`;

const RECORD_CREATED = `
UNWIND $ids AS id
MATCH (mem:Memory {id: id})
CREATE (h:HistoryEvent {
  id: randomUUID(), namespace: mem.namespace, event: 'created', name: 'created',
  actor: coalesce(mem.who, 'api'), at: $now })-[:ABOUT]->(mem)`;

export interface MemoryWrite {
  now: string;
  memories: MemoryInsert[];
  chunksFor: (memoryId: string) => ChunkInsert[];
  mentionsFor: (memoryId: string) => { strong: MentionInsert[]; weak: MentionInsert[]; attributes: AttributeInsert[] };
  nearDuplicatesFor: (memoryId: string) => NearDuplicateLink[];
  jobsFor: (memoryId: string) => JobInsert[];
}

export interface MemoryWriteResult {
  ref: number;
  id: string;
  created: boolean;
  /** As stored by this transaction, so the caller needs no second read. */
  memory: MemoryRecord;
}

/**
 * Runs inside one transaction. Only memories this call actually created get chunks, links
 * and jobs; the rest were exact duplicates (possibly written concurrently by someone else).
 */
export async function writeMemories(tx: TxRunner, write: MemoryWrite): Promise<MemoryWriteResult[]> {
  const { now } = write;
  const merged = await tx.run<MemoryWriteResult & Record<string, unknown>>(MERGE_MEMORIES, { memories: write.memories, now });
  const createdIds = merged.filter((r) => r.created).map((r) => r.id);
  if (createdIds.length === 0) return merged;

  const chunks = createdIds.flatMap(write.chunksFor);
  const links = createdIds.flatMap(write.nearDuplicatesFor);
  const graph = createdIds.map(write.mentionsFor);
  const strong = graph.flatMap((g) => g.strong);
  const weak = graph.flatMap((g) => g.weak);
  const attributes = graph.flatMap((g) => g.attributes);
  const jobs = createdIds.flatMap(write.jobsFor);

  await createChunks(tx, chunks, now);
  await linkNearDuplicates(tx, links, now);
  await linkEntities(tx, { strong, weak, attributes }, now);
  await createJobs(tx, jobs, now);
  await tx.run(RECORD_CREATED, { ids: createdIds, now });
  return merged;
}

// The statements below are shared with `updateMemory`, which rewrites a memory's derived data.

/** Chunks with their vectors, under memories that exist in this transaction. */
export async function createChunks(tx: TxRunner, chunks: readonly ChunkInsert[], now: string): Promise<void> {
  if (chunks.length) await tx.run(CREATE_CHUNKS, { chunks, now });
}

export async function linkNearDuplicates(tx: TxRunner, links: readonly NearDuplicateLink[], now: string): Promise<void> {
  if (links.length) await tx.run(LINK_NEAR_DUPLICATES, { links, now });
}

/** The inline linker's output: mentions (strong ones create entities), then attributes. */
export async function linkEntities(
  tx: TxRunner,
  links: { strong: readonly MentionInsert[]; weak: readonly MentionInsert[]; attributes: readonly AttributeInsert[] },
  now: string,
): Promise<void> {
  if (links.strong.length) await tx.run(MERGE_STRONG_MENTIONS, { mentions: links.strong, now });
  if (links.weak.length) await tx.run(LINK_WEAK_MENTIONS, { mentions: links.weak, now });
  if (links.attributes.length) await tx.run(CREATE_ATTRIBUTES, { attributes: links.attributes, now });
}

export async function createJobs(tx: TxRunner, jobs: readonly JobInsert[], now: string): Promise<void> {
  if (jobs.length) await tx.run(CREATE_JOBS, { jobs, now });
}
