import type { TxRunner } from '../executor.js';
import { recordEvents } from '../history.js';
import { unlinkCoMentions } from './remember-write.js';

/**
 * What follows a memory when it is forgotten or its content replaced: everything derived from
 * it stops counting, in the caller's transaction. Attributes are kept for the audit trail
 * (superseded, with a reason); hints are deleted; mentions are removed and their entity's
 * count moves down; the relation mentions it contributed are taken back (a relation left with
 * none is deleted); facts the deep path extracted from it alone are forgotten too.
 * Each statement only touches what is still active, so running it twice changes nothing.
 */

// Facts whose every live source is in $ids (other sources keep them alive).
export const DERIVED_FACTS = `
UNWIND $ids AS id
MATCH (fact:Memory)-[:EXTRACTED_FROM]->(:Memory {id: id})
WHERE fact.deletedAt IS NULL
  AND NOT EXISTS { (fact)-[:EXTRACTED_FROM]->(other:Memory) WHERE other.deletedAt IS NULL AND NOT other.id IN $ids }
RETURN DISTINCT fact.id AS id`;

export const FORGET_FACTS = `
UNWIND $facts AS f
MATCH (fact:Memory {id: f.id})
WHERE fact.deletedAt IS NULL
SET fact.deletedAt = $now, fact.updatedAt = $now
REMOVE fact.dedupKey
RETURN fact.id AS id`;

export const RETIRE_ATTRIBUTES = `
UNWIND $ids AS id
MATCH (attr:Attribute {status: 'active'})-[:FROM]->(:Memory {id: id})
WHERE NOT attr.id IN $keep
SET attr.status = 'superseded', attr.validTo = $now, attr.supersededReason = $reason
RETURN attr.id AS id`;

export const DROP_HINTS = `
UNWIND $ids AS id
MATCH (h:Hint)-[:HINT_OF]->(:Memory {id: id})
DETACH DELETE h`;

// Relations record the memory behind each mention they counted (`sources`, graph-write.ts); they
// are reached through the entities the memory mentions, so this runs before those links go.
// Mentions counted before `sources` existed, or by relate(), are not the memory's to take back.
export const TAKE_BACK_RELATIONS = `
UNWIND $ids AS id
MATCH (:Memory {id: id})-[:MENTIONS]->(:Entity)-[r:RELATES_TO]-(:Entity)
WHERE id IN coalesce(r.sources, [])
WITH DISTINCT r, id
WITH r, collect(id) AS gone
WITH r, size([s IN r.sources WHERE s IN gone]) AS taken, [s IN r.sources WHERE NOT s IN gone] AS kept
SET r.sources = kept, r.mentions = coalesce(r.mentions, 0) - taken, r.updatedAt = $now
WITH r WHERE r.mentions <= 0
DELETE r`;

export const UNLINK_MENTIONS = `
UNWIND $ids AS id
MATCH (:Memory {id: id})-[r:MENTIONS]->(e:Entity)
SET e.mentions = CASE WHEN coalesce(e.mentions, 0) > 0 THEN e.mentions - 1 ELSE 0 END, e.updatedAt = $now
DELETE r`;

export interface Retirement {
  /** The memory whose derived data is retired. */
  memoryId: string;
  reason: string;
  actor: string;
  now: string;
  /** Attributes made in the same transaction (updateMemory's new ones) stay active. */
  keepAttributeIds?: readonly string[];
  /** Made before the transaction: history event ids for forgotten facts, one per fact. */
  eventId: (factId: string) => string;
}

export interface RetirementResult {
  forgottenFacts: string[];
  retiredAttributes: string[];
}

export async function retireDerived(tx: TxRunner, r: Retirement): Promise<RetirementResult> {
  const facts = (await tx.run<{ id: string }>(DERIVED_FACTS, { ids: [r.memoryId] })).map((row) => row.id);
  if (facts.length) {
    const forgotten = await tx.run<{ id: string }>(FORGET_FACTS, { facts: facts.map((id) => ({ id })), now: r.now });
    await recordEvents(
      tx,
      forgotten.map(({ id }) => ({
        id: r.eventId(id),
        event: 'forgotten',
        about: { memoryId: id },
        actor: r.actor,
        outcome: 'forgotten',
        reason: r.reason,
      })),
      r.now,
    );
  }
  const ids = [r.memoryId, ...facts];
  const retired = await tx.run<{ id: string }>(RETIRE_ATTRIBUTES, { ids, keep: r.keepAttributeIds ?? [], now: r.now, reason: r.reason });
  await tx.run(DROP_HINTS, { ids });
  await tx.run(TAKE_BACK_RELATIONS, { ids, now: r.now });
  await unlinkCoMentions(tx, ids, r.now);
  await tx.run(UNLINK_MENTIONS, { ids, now: r.now });
  return { forgottenFacts: facts, retiredAttributes: retired.map((row) => row.id) };
}
