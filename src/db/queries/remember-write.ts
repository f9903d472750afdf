import type { TxRunner } from '../executor.js';
import { recordEvents } from '../history.js';
import { derivedId } from '../ids.js';
import { enqueue, jobName, type JobInput, type JobKind } from '../jobs/index.js';
import { MEMORY_RETURN, type ChunkRecord, type MemoryRecord } from '../records.js';

/**
 * The write half of `remember`: everything for a batch of prepared memories in one managed
 * transaction. Exact dedup is enforced here too (MERGE on the unique dedupKey), so two
 * concurrent writers of the same content still produce one memory.
 *
 * Every statement is safe to run twice (the driver re-runs a managed transaction whose COMMIT
 * reply was lost): all ids come from the caller, made before the transaction; nodes and
 * relationships are MERGEd on them; counters move only ON CREATE of what they count.
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

export interface HistoryInsert {
  id: string;
  memoryId: string;
}

export interface JobInsert {
  id: string;
  memoryId: string;
  kind: JobKind;
  maxAttempts: number;
}

// A match on someone else's memory is a sighting, counted once per write (`$writeId`): a re-run
// of this transaction, or a second copy in the same batch, does not count again.
export const MERGE_MEMORIES = `
UNWIND $memories AS m
MERGE (mem:Memory {dedupKey: m.dedupKey})
  ON CREATE SET mem += m.props, mem.createdAt = $now, mem.updatedAt = $now, mem.accessCount = 0
  ON MATCH SET mem.accessCount = coalesce(mem.accessCount, 0)
    + CASE WHEN mem.id <> m.props.id AND coalesce(mem.lastSeenWrite, '') <> $writeId THEN 1 ELSE 0 END,
    mem.lastSeenAt = CASE WHEN mem.id <> m.props.id THEN $now ELSE mem.lastSeenAt END,
    mem.lastSeenWrite = CASE WHEN mem.id <> m.props.id THEN $writeId ELSE mem.lastSeenWrite END
RETURN m.ref AS ref, mem.id AS id, mem.id = m.props.id AS created, ${MEMORY_RETURN('mem')} AS memory`;

export const CREATE_CHUNKS = `
UNWIND $chunks AS c
MATCH (mem:Memory {id: c.memoryId})
MERGE (ch:Chunk {id: c.id})
  ON CREATE SET ch.namespace = mem.namespace, ch.index = c.index, ch.text = c.text,
    ch.startChar = c.startChar, ch.endChar = c.endChar, ch.contentHash = c.contentHash,
    ch.name = 'chunk ' + toString(c.index) + ' of ' + mem.name,
    // What the vector was made from and by: the embedding tracker re-embeds when either differs.
    ch.embeddingModel = mem.embeddingModel, ch.embeddedHash = c.contentHash
MERGE (mem)-[:HAS_CHUNK]->(ch)
WITH ch, c
CALL db.create.setNodeVectorProperty(ch, 'embedding', c.embedding)`;

// Only to a memory still live: one forgotten since the dedup read gets no link.
export const LINK_NEAR_DUPLICATES = `
UNWIND $links AS l
MATCH (mem:Memory {id: l.memoryId}), (old:Memory {id: l.existingId})
WHERE old.deletedAt IS NULL
MERGE (mem)-[d:DUPLICATE_OF]->(old)
SET d.similarity = l.similarity, d.kind = 'near', d.at = $now
RETURN mem.id AS memoryId`;

// Strong mentions create the entity when missing; weak ones only link to existing entities,
// because entities from every capitalised word are the known failure of regex linkers.
export const MERGE_STRONG_MENTIONS = `
UNWIND $mentions AS x
MATCH (mem:Memory {id: x.memoryId})
MERGE (e:Entity {namespace: mem.namespace, canonicalName: x.canonicalName})
  ON CREATE SET e.id = x.entityId, e.name = x.name, e.type = x.type, e.mentions = 0,
                e.createdAt = $now, e.namespaceToken = mem.namespaceToken
MERGE (mem)-[r:MENTIONS]->(e)
  ON CREATE SET r.mentionText = x.mentionText, r.confidence = x.confidence,
                e.mentions = coalesce(e.mentions, 0) + 1, e.updatedAt = $now`;

export const LINK_WEAK_MENTIONS = `
UNWIND $mentions AS x
MATCH (mem:Memory {id: x.memoryId})
MATCH (e:Entity {namespace: mem.namespace, canonicalName: x.canonicalName})
MERGE (mem)-[r:MENTIONS]->(e)
  ON CREATE SET r.mentionText = x.mentionText, r.confidence = x.confidence,
                e.mentions = coalesce(e.mentions, 0) + 1, e.updatedAt = $now`;

// Entities named in the same memory are related: one RELATES_TO {type: 'co_mentioned'} per pair,
// directed from the lower canonical name so every memory MERGEs the same edge. The memory keeps
// the pairs it counted (`coMentionPairs`, entity ids "a|b"): that list is the marker that makes a
// re-run count nothing, and what forget needs to take its contribution back.
export const LINK_CO_MENTIONS = `
UNWIND $memories AS m
MATCH (mem:Memory {id: m.memoryId})
WHERE mem.coMentionPairs IS NULL
SET mem.coMentionPairs = []
WITH mem, m
UNWIND m.pairs AS pair
MATCH (mem)-[:MENTIONS]->(a:Entity {canonicalName: pair[0]})
MATCH (mem)-[:MENTIONS]->(b:Entity {canonicalName: pair[1]})
MERGE (a)-[r:RELATES_TO {type: 'co_mentioned'}]->(b)
  ON CREATE SET r.mentions = 0, r.memoryIds = [], r.confidence = $confidence, r.createdAt = $now,
                r.createdBy = 'inline-linker'
SET r.mentions = coalesce(r.mentions, 0) + 1, r.updatedAt = $now,
    r.memoryIds = CASE WHEN size(coalesce(r.memoryIds, [])) < $maxMemoryIds THEN coalesce(r.memoryIds, []) + mem.id ELSE r.memoryIds END
SET r.strength = toFloat(r.mentions) / (r.mentions + 1),
    mem.coMentionPairs = mem.coMentionPairs + (a.id + '|' + b.id)`;

// Takes back what LINK_CO_MENTIONS counted for these memories (forget, or an update before it
// re-links): each edge loses one mention and the memory's id, and goes at zero. Removing the
// marker makes a re-run change nothing.
export const UNLINK_CO_MENTIONS = `
UNWIND $ids AS id
MATCH (mem:Memory {id: id})
WHERE mem.coMentionPairs IS NOT NULL
WITH mem, mem.coMentionPairs AS keys
REMOVE mem.coMentionPairs
WITH mem, keys
UNWIND keys AS key
WITH mem, split(key, '|') AS pair
MATCH (a:Entity {id: pair[0]})-[r:RELATES_TO {type: 'co_mentioned'}]->(b:Entity {id: pair[1]})
WHERE a.namespace = mem.namespace
// One update per edge: a memory and the facts extracted from it may have counted the same pair.
WITH r, collect(DISTINCT mem.id) AS gone
SET r.mentions = coalesce(r.mentions, size(gone)) - size(gone), r.updatedAt = $now,
    r.memoryIds = [x IN coalesce(r.memoryIds, []) WHERE NOT x IN gone]
SET r.strength = CASE WHEN r.mentions > 0 THEN toFloat(r.mentions) / (r.mentions + 1) ELSE 0.0 END
FOREACH (_ IN CASE WHEN r.mentions <= 0 THEN [1] ELSE [] END | DELETE r)`;

/** A memory relates at most this many of its entities pairwise (15 pairs), in mention order, strong first. */
export const CO_MENTION_MAX_ENTITIES = 6;
/** Contributing memory ids kept on a co-mention edge, for audit and the Browser. */
export const CO_MENTION_MAX_MEMORY_IDS = 16;
/** A co-mention says the two are related, not how. */
const CO_MENTION_CONFIDENCE = 0.5;

// Other names the text gives an entity (attributes of kind 'alias', as written), appended to
// Entity.aliases (where a merge keeps a merged entity's name) up to MAX_ENTITY_ALIASES, compared
// without case: a re-run finds them there and adds nothing.
export const ADD_ALIASES = `
UNWIND $aliases AS a
MATCH (mem:Memory {id: a.memoryId})
MATCH (e:Entity {namespace: mem.namespace, canonicalName: a.entityCanonicalName})
WITH e, collect(DISTINCT a.content) AS names
WITH e, coalesce(e.aliases, []) AS old, names
WITH e, old, [o IN old | toLower(o)] AS known, names
WITH e, old, reduce(acc = [], n IN names | CASE WHEN toLower(n) IN known OR toLower(n) = e.canonicalName OR toLower(n) IN [x IN acc | toLower(x)] THEN acc ELSE acc + n END) AS fresh
WHERE size(fresh) > 0 AND size(old) < $maxAliases
SET e.aliases = old + fresh[0..($maxAliases - size(old))], e.updatedAt = $now`;

/** Aliases kept per entity (the alias index reads them all). */
export const MAX_ENTITY_ALIASES = 16;

export const CREATE_ATTRIBUTES = `
UNWIND $attributes AS a
MATCH (mem:Memory {id: a.memoryId})
MATCH (e:Entity {namespace: mem.namespace, canonicalName: a.entityCanonicalName})
MERGE (asp:Aspect {entityId: e.id, canonicalName: a.aspectCanonicalName})
  ON CREATE SET asp.id = a.aspectId, asp.name = a.aspect, asp.weight = 1.0,
                asp.namespace = mem.namespace, asp.createdAt = $now
MERGE (e)-[:HAS_ASPECT]->(asp)
MERGE (attr:Attribute {id: a.id})
  ON CREATE SET attr.namespace = mem.namespace, attr.content = a.content, attr.name = left(a.content, 60),
    attr.kind = a.kind, attr.importance = a.importance, attr.confidence = 1.0, attr.status = 'active',
    attr.validFrom = $now, attr.createdBy = 'inline-linker'
MERGE (asp)-[:HAS_ATTRIBUTE]->(attr)
MERGE (attr)-[:FROM]->(mem)`;

/** Everything derived from one memory, with its ids, made before the transaction. */
export interface MemoryRows {
  chunks: ChunkInsert[];
  mentions: { strong: MentionInsert[]; weak: MentionInsert[]; attributes: AttributeInsert[] };
  nearDuplicates: NearDuplicateLink[];
  jobs: JobInsert[];
  created: HistoryInsert;
}

export interface MemoryWrite {
  now: string;
  /** Made before the transaction: tells a re-run of this write from another write. */
  writeId: string;
  memories: MemoryInsert[];
  /** Keyed by the memory id in `props.id`. */
  rows: ReadonlyMap<string, MemoryRows>;
}

export interface MemoryWriteResult {
  ref: number;
  id: string;
  created: boolean;
  /** As stored by this transaction, so the caller needs no second read. */
  memory: MemoryRecord;
  /** Whether its near-duplicate link was made (the other memory was still live). */
  nearLinked: boolean;
}

/*
 * PIPELINING: statements whose parameters do not need an earlier statement's result are issued
 * together and awaited once. TxRunner.run hands the query to the driver synchronously, the driver
 * queues RUN+PULL on the transaction's connection, and Neo4j executes them one after another in
 * the order issued — so a later statement still sees what an earlier one wrote, and the
 * transaction pays one round trip instead of one per statement. A failing statement fails the
 * transaction, and the ones queued after it, as before.
 */

/**
 * Runs inside one transaction. Only memories this call actually created get chunks, links
 * and jobs; the rest were exact duplicates (possibly written concurrently by someone else).
 */
export async function writeMemories(tx: TxRunner, write: MemoryWrite): Promise<MemoryWriteResult[]> {
  const { now } = write;
  const rows = await tx.run<Omit<MemoryWriteResult, 'nearLinked'> & Record<string, unknown>>(MERGE_MEMORIES, {
    memories: write.memories,
    now,
    writeId: write.writeId,
  });
  const createdRows = rows.filter((r) => r.created);
  const created = createdRows.map((r) => write.rows.get(r.id)!);
  if (created.length === 0) return rows.map((r) => ({ ...r, nearLinked: false }));
  const namespaceOf = new Map(createdRows.map((r) => [r.id, r.memory.namespace]));

  // Pipelined (see PIPELINING): these need each other's data, not each other's results.
  const [, linked] = await Promise.all([
    createChunks(
      tx,
      created.flatMap((r) => r.chunks),
      now,
    ),
    linkNearDuplicates(
      tx,
      created.flatMap((r) => r.nearDuplicates),
      now,
    ),
    linkEntities(
      tx,
      {
        strong: created.flatMap((r) => r.mentions.strong),
        weak: created.flatMap((r) => r.mentions.weak),
        attributes: created.flatMap((r) => r.mentions.attributes),
      },
      now,
    ),
    createJobs(
      tx,
      created.flatMap((r) => r.jobs),
      namespaceOf,
      now,
    ),
    recordEvents(
      tx,
      createdRows.map((r) => ({
        id: write.rows.get(r.id)!.created.id,
        event: 'created',
        about: { memoryId: r.id },
        actor: r.memory.actor,
      })),
      now,
    ),
  ]);
  // Dedup jobs only for the near-duplicate links that were made: after their result.
  await createJobs(tx, nearDuplicateJobs(created, linked), namespaceOf, now);
  return rows.map((r) => ({ ...r, nearLinked: r.created && linked.has(r.id) }));
}

/**
 * A `dedup` job (the deep path decides merge / replace / keep both) for each created memory whose
 * near-duplicate link was made and that gets deep-path jobs at all; its id derives from the
 * memory's first job id, made before the transaction, so a re-run creates it once.
 */
function nearDuplicateJobs(created: readonly MemoryRows[], linked: ReadonlySet<string>): JobInsert[] {
  return created.flatMap((r) => {
    const first = r.jobs[0];
    const link = r.nearDuplicates[0];
    return first && link && linked.has(link.memoryId)
      ? [{ id: derivedId(first.id, 'dedup'), memoryId: link.memoryId, kind: 'dedup', maxAttempts: first.maxAttempts }]
      : [];
  });
}

// The statements below are shared with `updateMemory`, which rewrites a memory's derived data.

/** Chunks with their vectors, under memories that exist in this transaction. */
export async function createChunks(tx: TxRunner, chunks: readonly ChunkInsert[], now: string): Promise<void> {
  if (chunks.length) await tx.run(CREATE_CHUNKS, { chunks, now });
}

/** Returns the ids of the memories that got their link. */
export async function linkNearDuplicates(tx: TxRunner, links: readonly NearDuplicateLink[], now: string): Promise<Set<string>> {
  if (links.length === 0) return new Set();
  const rows = await tx.run<{ memoryId: string }>(LINK_NEAR_DUPLICATES, { links, now });
  return new Set(rows.map((r) => r.memoryId));
}

/** The inline linker's output: mentions (strong ones create entities), then attributes. */
export async function linkEntities(
  tx: TxRunner,
  links: { strong: readonly MentionInsert[]; weak: readonly MentionInsert[]; attributes: readonly AttributeInsert[] },
  now: string,
): Promise<void> {
  // Pipelined in this order (see PIPELINING): weak links, attributes and co-mentions need the
  // entities the strong mentions create.
  const runs: Array<Promise<unknown>> = [];
  if (links.strong.length) runs.push(tx.run(MERGE_STRONG_MENTIONS, { mentions: links.strong, now }));
  if (links.weak.length) runs.push(tx.run(LINK_WEAK_MENTIONS, { mentions: links.weak, now }));
  const attributes = links.attributes.filter((a) => a.kind !== 'alias');
  const aliases = links.attributes.filter((a) => a.kind === 'alias');
  if (attributes.length) runs.push(tx.run(CREATE_ATTRIBUTES, { attributes, now }));
  if (aliases.length) runs.push(tx.run(ADD_ALIASES, { aliases, now, maxAliases: MAX_ENTITY_ALIASES }));
  const memories = coMentionPairs([...links.strong, ...links.weak]);
  if (memories.length) {
    runs.push(tx.run(LINK_CO_MENTIONS, { memories, now, confidence: CO_MENTION_CONFIDENCE, maxMemoryIds: CO_MENTION_MAX_MEMORY_IDS }));
  }
  await Promise.all(runs);
}

/**
 * Undoes the co-mention edges these memories counted, in the caller's transaction; safe to run
 * twice. For retiring a memory's derived data (forget, updateMemory).
 */
export async function unlinkCoMentions(tx: TxRunner, memoryIds: readonly string[], now: string): Promise<void> {
  if (memoryIds.length) await tx.run(UNLINK_CO_MENTIONS, { ids: memoryIds, now });
}

/** Per memory, the canonical-name pairs of its first CO_MENTION_MAX_ENTITIES entities, each pair in sorted order. */
export function coMentionPairs(mentions: readonly MentionInsert[]): Array<{ memoryId: string; pairs: Array<[string, string]> }> {
  const names = new Map<string, string[]>();
  for (const m of mentions) {
    const list = names.get(m.memoryId) ?? [];
    if (list.length < CO_MENTION_MAX_ENTITIES && !list.includes(m.canonicalName)) list.push(m.canonicalName);
    names.set(m.memoryId, list);
  }
  return [...names].flatMap(([memoryId, list]) => {
    const pairs = list.flatMap((a, i) => list.slice(i + 1).map((b): [string, string] => (a < b ? [a, b] : [b, a])));
    return pairs.length ? [{ memoryId, pairs }] : [];
  });
}

/** A memory's jobs, queued in the namespace `namespaceOf` gives its memory. */
export async function createJobs(
  tx: TxRunner,
  jobs: readonly JobInsert[],
  namespaceOf: ReadonlyMap<string, string>,
  now: string,
): Promise<void> {
  const inputs = jobs.flatMap((j): JobInput[] => {
    const namespace = namespaceOf.get(j.memoryId);
    if (namespace === undefined) return [];
    return [
      {
        id: j.id,
        kind: j.kind,
        namespace,
        name: jobName(j.kind, j.memoryId, 8),
        maxAttempts: j.maxAttempts,
        target: { memoryId: j.memoryId },
      },
    ];
  });
  await enqueue(tx, inputs, now);
}
