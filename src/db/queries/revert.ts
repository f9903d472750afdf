import type { TxRunner } from '../executor.js';

/**
 * The statements of a revert (src/deep/proposal-reversal.ts composes them in one transaction): the proposal
 * event and what it applied are read back, and each change is undone. Each touches only what is
 * still as the proposal left it, so running it twice changes nothing twice.
 */

export const LOAD_PROPOSAL = `
MATCH (h:HistoryEvent {id: $eventId})-[:ABOUT]->(m:Memory)
WHERE h.event IN [$proposalEvent, $dedupEvent] AND ($anyNamespace OR h.namespace IN $namespaces)
RETURN h.event AS event, h.outcome AS outcome, h.details AS details, h.revertedBy AS revertedBy, m.id AS sourceMemoryId, h.namespace AS namespace`;

// A near-duplicate decision undone: the memory it superseded (the newer after a merge, the older
// after a replace) is active again, and the pair is open again (recall collapses it).
export const RESTORE_DUPLICATE = `
MATCH (winner:Memory {id: $winnerId}), (loser:Memory {id: $loserId})
WHERE loser.supersededBy = winner.id
OPTIONAL MATCH (winner)-[s:SUPERSEDES]->(loser)
DELETE s
SET loser.supersededAt = null, loser.validTo = null, loser.supersededBy = null, loser.updatedAt = $now
RETURN loser.id AS id`;

export const REOPEN_DUPLICATE = `
MATCH (:Memory {id: $newId})-[d:DUPLICATE_OF]->(:Memory {id: $oldId})
SET d.reviewedAt = null, d.decision = 'reverted'`;

export const TARGET_RETIREMENTS = `
MATCH (t:HistoryEvent {event: $retiredEvent})-[:ABOUT]->(:Memory {id: $targetId})
RETURN t.details AS details`;

// The fact memory is forgotten as `forget` does it (memory-mutations.ts): its dedupKey freed, so
// the same text remembered later is a new memory, and what was derived from it retired.
export const FACT_TO_FORGET = `
MATCH (fact:Memory {id: $factId})
WHERE fact.deletedAt IS NULL AND fact.id <> $sourceMemoryId
RETURN fact.namespace AS namespace`;

export const RETRACT_ATTRIBUTE = `
MATCH (attr:Attribute {id: $attributeId})
OPTIONAL MATCH (attr)-[s:SUPERSEDES]->(old:Attribute)
SET attr.status = 'superseded', attr.validTo = coalesce(attr.validTo, $now), attr.retractedAt = $now
WITH attr, collect(old.id) AS restored, collect(s) AS links
FOREACH (s IN links | DELETE s)
WITH attr, restored
MATCH (old:Attribute) WHERE old.id IN restored
SET old.status = 'active', old.validTo = null
RETURN attr.id AS retracted, collect(old.id) AS restored`;

export const RESTORE_ATTRIBUTES = `
MATCH (old:Attribute) WHERE old.id IN $ids AND old.status = 'superseded' AND old.retractedAt IS NULL
OPTIONAL MATCH (newer:Attribute)-[s:SUPERSEDES]->(old) WHERE newer.id IN $newAttributeIds
DELETE s
SET old.status = 'active', old.validTo = null
RETURN DISTINCT old.id AS id`;

export const RESTORE_MEMORY = `
MATCH (old:Memory {id: $targetId})
WHERE old.supersededAt IS NOT NULL AND coalesce(old.supersededBy, '') = coalesce($newMemoryId, '')
OPTIONAL MATCH (:Memory {id: $newMemoryId})-[s:SUPERSEDES]->(old)
DELETE s
SET old.supersededAt = null, old.validTo = null, old.supersededBy = null, old.updatedAt = $now
RETURN old.id AS id`;

export const LOAD_REVERT = `MATCH (r:HistoryEvent {id: $revertId}) RETURN r.details AS details`;

export interface ProposalRow {
  event: string;
  outcome: string;
  details: string;
  revertedBy: string | null;
  sourceMemoryId: string;
}

/** The proposal (or near-duplicate decision) event, in one of `namespaces` (null = any). */
export async function loadProposal(
  tx: TxRunner,
  p: { eventId: string; proposalEvent: string; dedupEvent: string; namespaces: readonly string[] | null },
): Promise<ProposalRow | null> {
  const [row] = await tx.run<ProposalRow & Record<string, unknown>>(LOAD_PROPOSAL, {
    eventId: p.eventId,
    proposalEvent: p.proposalEvent,
    dedupEvent: p.dedupEvent,
    namespaces: p.namespaces ?? [],
    anyNamespace: p.namespaces === null,
  });
  return row ?? null;
}

/** The details of a revert's own event (a re-run of a revert that committed returns them). */
export async function revertDetails(tx: TxRunner, revertId: string): Promise<string> {
  return (await tx.run<{ details: string }>(LOAD_REVERT, { revertId }))[0]!.details;
}

export async function restoreDuplicate(tx: TxRunner, p: { now: string; winnerId: string; loserId: string }): Promise<string[]> {
  return (await tx.run<{ id: string }>(RESTORE_DUPLICATE, p)).map((r) => r.id);
}

export async function reopenDuplicate(tx: TxRunner, p: { newId: string; oldId: string }): Promise<void> {
  await tx.run(REOPEN_DUPLICATE, p);
}

/** The `details` of every target-retired event about the memory. */
export async function targetRetirements(tx: TxRunner, p: { retiredEvent: string; targetId: string | null | undefined }): Promise<string[]> {
  return (await tx.run<{ details: string }>(TARGET_RETIREMENTS, p)).map((r) => r.details);
}

/** The fact memory (its namespace) while it is live and not the proposal's source; null otherwise. */
export async function factToForget(
  tx: TxRunner,
  p: { now: string; sourceMemoryId: string; factId: string },
): Promise<{ namespace: string } | null> {
  const [row] = await tx.run<{ namespace: string }>(FACT_TO_FORGET, p);
  return row ?? null;
}

export async function retractAttribute(
  tx: TxRunner,
  p: { now: string; attributeId: string },
): Promise<{ retracted: string; restored: string[] } | null> {
  const [row] = await tx.run<{ retracted: string; restored: string[] }>(RETRACT_ATTRIBUTE, p);
  return row ?? null;
}

export async function restoreAttributes(tx: TxRunner, p: { ids: string[]; newAttributeIds: string[] }): Promise<string[]> {
  return (await tx.run<{ id: string }>(RESTORE_ATTRIBUTES, p)).map((r) => r.id);
}

export async function restoreMemory(
  tx: TxRunner,
  p: { now: string; targetId: string | null | undefined; newMemoryId: string | null },
): Promise<string[]> {
  return (await tx.run<{ id: string }>(RESTORE_MEMORY, p)).map((r) => r.id);
}
