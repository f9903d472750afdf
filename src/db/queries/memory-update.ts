import type { TxRunner } from '../executor.js';
import { derivedId } from '../ids.js';
import { MEMORY_EVENT, recordEvents } from '../history.js';
import { retireDerived } from './retire-derived.js';
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
 * content (chunks and vectors, hints, mentions, attributes, near-duplicate links, facts the deep
 * path extracted from it) is retired and replaced by what the write path made from the new
 * content. Every id comes from the caller; a re-run of the transaction finds the new content
 * already in place and changes nothing.
 */

export const UPDATED_SOURCE_REASON = 'the memory content was updated';

export const REPLACE_CONTENT = `
MATCH (m:Memory {id: $id, namespace: $namespace})
WHERE m.deletedAt IS NULL
WITH m, m.content AS previousContent, m.contentHash AS previousContentHash
SET m += $props, m.dedupKey = $dedupKey, m.updatedAt = $now
RETURN previousContent, previousContentHash`;

export const DROP_CHUNKS = `
MATCH (:Memory {id: $id})-[:HAS_CHUNK]->(c:Chunk)
DETACH DELETE c`;

export const UNLINK_NEAR_DUPLICATES = `
MATCH (:Memory {id: $id})-[d:DUPLICATE_OF]->(:Memory)
DELETE d`;

// A new attribute on the same aspect as a retired one continues its supersession chain.
export const LINK_SUPERSEDED = `
UNWIND $newIds AS newId
MATCH (asp:Aspect)-[:HAS_ATTRIBUTE]->(newer:Attribute {id: newId})
MATCH (asp)-[:HAS_ATTRIBUTE]->(old:Attribute)
WHERE old.id IN $oldIds
MERGE (newer)-[s:SUPERSEDES]->(old)
  ON CREATE SET s.method = 'update', s.reason = 'the memory content was updated', s.at = $now`;

// A kind with a job still open (pending or leased) gets no second one. A leased job is asked to
// run again once it finishes (`rerunRequested`, see completeJob): it may have read the old content.
export const OPEN_JOB_KINDS = `
MATCH (j:Job)-[:FOR]->(:Memory {id: $id})
WHERE j.status IN ['pending', 'leased']
SET j.rerunRequested = CASE WHEN j.status = 'leased' THEN $now ELSE j.rerunRequested END
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
  /** Jobs to queue, one per kind; kinds with a job still pending or leased for this memory are skipped. */
  jobs: JobInsert[];
  /** The `updated` history event's id; forgotten facts get ids derived from it. */
  eventId: string;
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
  if (previous.previousContentHash === r.props.contentHash) return { previousContent: previous.previousContent }; // a re-run

  const newIds = r.links.attributes.map((a) => a.id);
  await tx.run(DROP_CHUNKS, { id });
  await tx.run(UNLINK_NEAR_DUPLICATES, { id });
  const derived = await retireDerived(tx, {
    memoryId: id,
    reason: UPDATED_SOURCE_REASON,
    actor: r.actor,
    now,
    keepAttributeIds: newIds,
    eventId: (factId) => derivedId(r.eventId, factId),
  });
  const retired = derived.retiredAttributes;

  await createChunks(tx, r.chunks, now);
  await linkNearDuplicates(tx, r.nearDuplicates, now);
  await linkEntities(tx, r.links, now);
  if (retired.length && newIds.length) await tx.run(LINK_SUPERSEDED, { newIds, oldIds: retired, now });

  const [open] = await tx.run<{ kinds: string[] }>(OPEN_JOB_KINDS, { id, now });
  const openKinds = open?.kinds ?? [];
  await createJobs(
    tx,
    r.jobs.filter((j) => !openKinds.includes(j.kind)),
    new Map([[id, r.namespace]]),
    now,
  );
  await recordEvents(
    tx,
    [
      {
        id: r.eventId,
        event: MEMORY_EVENT.updated,
        about: { memoryId: id },
        actor: r.actor,
        outcome: MEMORY_EVENT.updated,
        details: {
          previousContent: previous.previousContent,
          previousContentHash: previous.previousContentHash,
          contentHash: r.props.contentHash,
          retiredAttributes: retired.length,
          forgottenFacts: derived.forgottenFacts.length,
        },
      },
    ],
    now,
  );
  return { previousContent: previous.previousContent };
}
