import { randomUUID } from 'node:crypto';
import type { Executor, TxRunner } from '../db/index.js';
import { ConflictError, NotFoundError, ValidationError } from '../errors.js';
import { derivedId } from '../db/index.js';
import { forgetInTx, forgetReason } from '../db/index.js';
import { redactStoredOrNull } from '../redaction/index.js';
import { OUTCOME } from './gates.js';
import { HISTORY_EVENT } from './history.js';

/**
 * Undoes one applied proposal of the deep path, from its audit event, in one transaction: the
 * fact memory it created is forgotten and its attribute retracted, the attributes that attribute
 * superseded become active again, and an UPDATE/DELETE target memory (with the attributes retired
 * with it) is restored. The proposal event is marked, so a second revert is a CONFLICT.
 */

export interface RevertResult {
  eventId: string;
  revertEventId: string;
  restoredMemoryIds: string[];
  restoredAttributeIds: string[];
  retractedAttributeIds: string[];
  forgottenMemoryIds: string[];
}

const REVERTIBLE = new Set<string>([OUTCOME.created, OUTCOME.appliedUpdate, OUTCOME.appliedDelete]);
export const REVERT_ACTOR = 'revert';

const LOAD_PROPOSAL = `
MATCH (h:HistoryEvent {id: $eventId})-[:ABOUT]->(m:Memory)
WHERE h.event IN [$proposalEvent, $dedupEvent] AND ($anyNamespace OR h.namespace IN $namespaces)
RETURN h.event AS event, h.outcome AS outcome, h.details AS details, h.revertedBy AS revertedBy, m.id AS sourceMemoryId, h.namespace AS namespace`;

// A near-duplicate decision undone: the memory it superseded (the newer after a merge, the older
// after a replace) is active again, and the pair is open again (recall collapses it).
const RESTORE_DUPLICATE = `
MATCH (winner:Memory {id: $winnerId}), (loser:Memory {id: $loserId})
WHERE loser.supersededBy = winner.id
OPTIONAL MATCH (winner)-[s:SUPERSEDES]->(loser)
DELETE s
SET loser.supersededAt = null, loser.validTo = null, loser.supersededBy = null, loser.updatedAt = $now
RETURN loser.id AS id`;

const REOPEN_DUPLICATE = `
MATCH (:Memory {id: $newId})-[d:DUPLICATE_OF]->(:Memory {id: $oldId})
SET d.reviewedAt = null, d.decision = 'reverted'`;

const DEDUP_REVERTIBLE = new Set(['applied:merge', 'applied:replace', 'applied:keep_both']);

const TARGET_RETIREMENTS = `
MATCH (t:HistoryEvent {event: $retiredEvent})-[:ABOUT]->(:Memory {id: $targetId})
RETURN t.details AS details`;

// The fact memory is forgotten as `forget` does it (memory-mutations.ts): its dedupKey freed, so
// the same text remembered later is a new memory, and what was derived from it retired.
const FACT_TO_FORGET = `
MATCH (fact:Memory {id: $factId})
WHERE fact.deletedAt IS NULL AND fact.id <> $sourceMemoryId
RETURN fact.namespace AS namespace`;

const FACT_FORGET_REASON = 'proposal reverted';
/** Like forget's reason: stored, audited and shown back, so bounded. */
export const MAX_REVERT_REASON_CHARS = 1_000;

const RETRACT_ATTRIBUTE = `
MATCH (attr:Attribute {id: $attributeId})
OPTIONAL MATCH (attr)-[s:SUPERSEDES]->(old:Attribute)
SET attr.status = 'superseded', attr.validTo = coalesce(attr.validTo, $now), attr.retractedAt = $now
WITH attr, collect(old.id) AS restored, collect(s) AS links
FOREACH (s IN links | DELETE s)
WITH attr, restored
MATCH (old:Attribute) WHERE old.id IN restored
SET old.status = 'active', old.validTo = null
RETURN attr.id AS retracted, collect(old.id) AS restored`;

const RESTORE_ATTRIBUTES = `
MATCH (old:Attribute) WHERE old.id IN $ids AND old.status = 'superseded' AND old.retractedAt IS NULL
OPTIONAL MATCH (newer:Attribute)-[s:SUPERSEDES]->(old) WHERE newer.id IN $newAttributeIds
DELETE s
SET old.status = 'active', old.validTo = null
RETURN DISTINCT old.id AS id`;

const RESTORE_MEMORY = `
MATCH (old:Memory {id: $targetId})
WHERE old.supersededAt IS NOT NULL AND coalesce(old.supersededBy, '') = coalesce($newMemoryId, '')
OPTIONAL MATCH (:Memory {id: $newMemoryId})-[s:SUPERSEDES]->(old)
DELETE s
SET old.supersededAt = null, old.validTo = null, old.supersededBy = null, old.updatedAt = $now
RETURN old.id AS id`;

const LOAD_REVERT = `MATCH (r:HistoryEvent {id: $revertId}) RETURN r.details AS details`;

const MARK_REVERTED = `
MATCH (h:HistoryEvent {id: $eventId}), (m:Memory {id: $sourceMemoryId})
SET h.revertedBy = $revertId, h.revertedAt = $now
CREATE (r:HistoryEvent {
  id: $revertId, namespace: h.namespace, event: $revertEvent, name: $revertEvent, memoryId: m.id,
  reason: $reason, actor: $actor, outcome: 'reverted', at: $now, details: $details })-[:ABOUT]->(m)`;

export const REVERTED_EVENT = 'pipeline.reverted';

interface ProposalDetails {
  action?: string | null;
  targetId?: string | null;
  factMemoryId?: string | null;
  attribute?: { id: string } | null;
}

/** `namespaces` are the caller's writable namespaces (null = any); others look like missing events. */
export async function revertProposal(
  executor: Executor,
  eventId: string,
  options: { namespaces: readonly string[] | null; actor: string; reason?: string | null },
): Promise<RevertResult> {
  if (options.reason && options.reason.length > MAX_REVERT_REASON_CHARS) {
    throw new ValidationError(`reason is longer than ${MAX_REVERT_REASON_CHARS} characters`, { field: 'reason' });
  }
  // Stored on the audit event: well-formed, trimmed and with its secrets masked, like every reason.
  const reason = redactStoredOrNull(forgetReason(options.reason));
  const revertId = randomUUID();
  const now = new Date().toISOString();
  return executor.writeTx('extraction.revert', async (tx) => {
    const [proposal] = await tx.run<{ event: string; outcome: string; details: string; revertedBy: string | null; sourceMemoryId: string }>(
      LOAD_PROPOSAL,
      {
        eventId,
        proposalEvent: HISTORY_EVENT.proposal,
        dedupEvent: HISTORY_EVENT.dedup,
        namespaces: options.namespaces ?? [],
        anyNamespace: options.namespaces === null,
      },
    );
    if (!proposal) throw new NotFoundError('history event', eventId);
    // This very call committed already and is being re-run (its COMMIT reply was lost).
    if (proposal.revertedBy === revertId)
      return JSON.parse((await tx.run<{ details: string }>(LOAD_REVERT, { revertId }))[0]!.details) as RevertResult;
    if (proposal.revertedBy) throw new ConflictError(`proposal ${eventId} was already reverted`, { revertEventId: proposal.revertedBy });
    const dedup = proposal.event === HISTORY_EVENT.dedup;
    if (!(dedup ? DEDUP_REVERTIBLE : REVERTIBLE).has(proposal.outcome))
      throw new ValidationError(`proposal ${eventId} applied nothing (outcome ${proposal.outcome}); there is nothing to revert`, {
        outcome: proposal.outcome,
      });

    const details = JSON.parse(proposal.details) as ProposalDetails;
    const result: RevertResult = {
      eventId,
      revertEventId: revertId,
      restoredMemoryIds: [],
      restoredAttributeIds: [],
      retractedAttributeIds: [],
      forgottenMemoryIds: [],
    };
    const base = { now, sourceMemoryId: proposal.sourceMemoryId };

    if (dedup) {
      // The older memory keeps a merge's text: its previous content is in this event's details.
      const d = JSON.parse(proposal.details) as { action: string; newMemoryId: string; existingMemoryId: string };
      const [winnerId, loserId] = d.action === 'merge' ? [d.existingMemoryId, d.newMemoryId] : [d.newMemoryId, d.existingMemoryId];
      if (d.action !== 'keep_both')
        result.restoredMemoryIds.push(...(await tx.run<{ id: string }>(RESTORE_DUPLICATE, { now, winnerId, loserId })).map((r) => r.id));
      await tx.run(REOPEN_DUPLICATE, { newId: d.newMemoryId, oldId: d.existingMemoryId });
    } else if (details.factMemoryId && proposal.outcome !== OUTCOME.appliedDelete) {
      const factId = details.factMemoryId;
      const [fact] = await tx.run<{ namespace: string }>(FACT_TO_FORGET, { ...base, factId });
      const ref = { id: factId, namespace: fact?.namespace ?? '', actor: options.actor };
      if (fact && (await forgetInTx(tx, ref, FACT_FORGET_REASON, now, derivedId(revertId, factId)))) result.forgottenMemoryIds.push(factId);
    }
    if (details.attribute?.id) {
      const [row] = await tx.run<{ retracted: string; restored: string[] }>(RETRACT_ATTRIBUTE, { now, attributeId: details.attribute.id });
      if (row) {
        result.retractedAttributeIds.push(row.retracted);
        result.restoredAttributeIds.push(...row.restored);
      }
    }
    if (details.targetId && proposal.outcome !== OUTCOME.created) await restoreTarget(tx, details, proposal.sourceMemoryId, now, result);

    await tx.run(MARK_REVERTED, {
      ...base,
      eventId,
      revertId,
      revertEvent: REVERTED_EVENT,
      actor: options.actor,
      reason,
      details: JSON.stringify({ ...result, outcome: proposal.outcome, action: details.action ?? null }),
    });
    return result;
  });
}

/** The target-retired audit event of this proposal says what the UPDATE/DELETE took out of service. */
async function restoreTarget(
  tx: TxRunner,
  details: ProposalDetails,
  sourceMemoryId: string,
  now: string,
  result: RevertResult,
): Promise<void> {
  const newMemoryId = details.action === 'UPDATE' ? (details.factMemoryId ?? null) : null;
  const retirements = (
    await tx.run<{ details: string }>(TARGET_RETIREMENTS, { retiredEvent: HISTORY_EVENT.targetRetired, targetId: details.targetId })
  )
    .map(
      (r) =>
        JSON.parse(r.details) as {
          sourceMemoryId?: string;
          newMemoryId?: string | null;
          newAttributeIds?: string[];
          retiredAttributeIds?: string[];
          memorySuperseded?: boolean;
        },
    )
    .filter((d) => d.sourceMemoryId === sourceMemoryId && (d.newMemoryId ?? null) === newMemoryId);
  for (const retirement of retirements) {
    const restored = await tx.run<{ id: string }>(RESTORE_ATTRIBUTES, {
      ids: retirement.retiredAttributeIds ?? [],
      newAttributeIds: retirement.newAttributeIds ?? [],
    });
    result.restoredAttributeIds.push(...restored.map((r) => r.id).filter((id) => !result.restoredAttributeIds.includes(id)));
    if (retirement.memorySuperseded) {
      result.restoredMemoryIds.push(
        ...(await tx.run<{ id: string }>(RESTORE_MEMORY, { now, targetId: details.targetId, newMemoryId })).map((r) => r.id),
      );
    }
  }
}
