import type { TxRunner } from '../executor.js';
import { MEMORY_EVENT, recordMemoryEvent } from './history.js';
import {
  createChunks,
  createJobs,
  linkEntities,
  linkNearDuplicates,
  type AttributeInsert,
  type ChunkInsert,
  type JobInsert,
  type MentionInsert,
  type NearDuplicateLink,
} from './remember-write.js';

/**
 * The write half of `updateMemory`: the memory keeps its id, and everything derived from its
 * content (chunks and vectors, hints, mentions, attributes, near-duplicate links) is replaced
 * by what the write path made from the new content.
 */

const REPLACE_CONTENT = `
MATCH (m:Memory {id: $id, namespace: $namespace})
WHERE m.deletedAt IS NULL
WITH m, m.content AS previousContent, m.contentHash AS previousContentHash
SET m += $props, m.dedupKey = $dedupKey, m.updatedAt = $now
RETURN previousContent, previousContentHash`;

const DROP_CHUNKS = `
MATCH (:Memory {id: $id})-[:HAS_CHUNK]->(c:Chunk)
DETACH DELETE c`;

// Hints were generated from the old content; the hints job makes new ones.
const DROP_HINTS = `
MATCH (h:Hint)-[:HINT_OF]->(:Memory {id: $id})
DETACH DELETE h`;

const UNLINK_NEAR_DUPLICATES = `
MATCH (:Memory {id: $id})-[d:DUPLICATE_OF]->(:Memory)
DELETE d`;

const UNLINK_MENTIONS = `
MATCH (:Memory {id: $id})-[r:MENTIONS]->(e:Entity)
SET e.mentions = CASE WHEN coalesce(e.mentions, 0) > 0 THEN e.mentions - 1 ELSE 0 END, e.updatedAt = $now
DELETE r`;

// Kept for the audit trail (attributeHistory shows them), no longer active.
const RETIRE_ATTRIBUTES = `
MATCH (attr:Attribute {status: 'active'})-[:FROM]->(:Memory {id: $id})
SET attr.status = 'superseded', attr.validTo = $now
RETURN attr.id AS id`;

// A new attribute on the same aspect as a retired one continues its supersession chain.
const LINK_SUPERSEDED = `
UNWIND $newIds AS newId
MATCH (asp:Aspect)-[:HAS_ATTRIBUTE]->(newer:Attribute {id: newId})
MATCH (asp)-[:HAS_ATTRIBUTE]->(old:Attribute)
WHERE old.id IN $oldIds
MERGE (newer)-[s:SUPERSEDES]->(old)
  ON CREATE SET s.method = 'update', s.reason = 'the memory content was updated', s.at = $now`;

const PENDING_JOB_KINDS = `
MATCH (j:Job {status: 'pending'})-[:FOR]->(:Memory {id: $id})
RETURN collect(DISTINCT j.kind) AS kinds`;

export interface ContentReplacement {
  id: string;
  namespace: string;
  actor: string;
  now: string;
  dedupKey: string;
  /** Content-derived memory properties (see contentProps) and the new importance. */
  props: Record<string, unknown>;
  chunks: ChunkInsert[];
  nearDuplicates: NearDuplicateLink[];
  links: { strong: MentionInsert[]; weak: MentionInsert[]; attributes: AttributeInsert[] };
  /** Jobs to queue, given the kinds already pending for this memory. */
  jobs(pendingKinds: readonly string[]): JobInsert[];
}

/** Runs inside one write transaction. Null when the memory is gone or forgotten. */
export async function replaceMemoryContent(tx: TxRunner, r: ContentReplacement): Promise<{ previousContent: string } | null> {
  const { id, now } = r;
  const [previous] = await tx.run<{ previousContent: string; previousContentHash: string }>(REPLACE_CONTENT, {
    id,
    namespace: r.namespace,
    props: r.props,
    dedupKey: r.dedupKey,
    now,
  });
  if (!previous) return null;

  await tx.run(DROP_CHUNKS, { id });
  await tx.run(DROP_HINTS, { id });
  await tx.run(UNLINK_NEAR_DUPLICATES, { id });
  await tx.run(UNLINK_MENTIONS, { id, now });
  const retired = (await tx.run<{ id: string }>(RETIRE_ATTRIBUTES, { id, now })).map((row) => row.id);

  await createChunks(tx, r.chunks, now);
  await linkNearDuplicates(tx, r.nearDuplicates, now);
  await linkEntities(tx, r.links, now);
  const newIds = r.links.attributes.map((a) => a.id);
  if (retired.length && newIds.length) await tx.run(LINK_SUPERSEDED, { newIds, oldIds: retired, now });

  const [pending] = await tx.run<{ kinds: string[] }>(PENDING_JOB_KINDS, { id });
  await createJobs(tx, r.jobs(pending?.kinds ?? []), now);
  await recordMemoryEvent(
    tx,
    {
      memoryId: id,
      event: MEMORY_EVENT.updated,
      actor: r.actor,
      details: { previousContent: previous.previousContent, previousContentHash: previous.previousContentHash, contentHash: r.props.contentHash, retiredAttributes: retired.length },
    },
    now,
  );
  return { previousContent: previous.previousContent };
}
