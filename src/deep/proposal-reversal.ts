import { randomUUID } from 'node:crypto';
import type { Executor, HistoryEventName, TxRunner } from '../db/index.js';
import { ConflictError, NotFoundError, ValidationError } from '../errors.js';
import { derivedId, markReverted, recordEvents } from '../db/index.js';
import {
  factToForget,
  forgetInTx,
  forgetReason,
  loadProposal,
  reopenDuplicate,
  restoreAttributes,
  restoreDuplicate,
  restoreMemory,
  retractAttribute,
  revertDetails,
  targetRetirements,
} from '../db/index.js';
import { OUTCOME } from './gates.js';
import { HISTORY_EVENT } from './pipeline-provenance.js';

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

const DEDUP_REVERTIBLE = new Set(['applied:merge', 'applied:replace', 'applied:keep_both']);

const FACT_FORGET_REASON = 'proposal reverted';
/** Like forget's reason: stored, audited and shown back, so bounded. */
export const MAX_REVERT_REASON_CHARS = 1_000;

export const REVERTED_EVENT = 'pipeline.reverted' satisfies HistoryEventName;

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
  // Stored on the audit event: well-formed and trimmed (its secrets are masked where it is recorded).
  const reason = forgetReason(options.reason);
  const revertId = randomUUID();
  const now = new Date().toISOString();
  return executor.writeTx('extraction.revert', async (tx) => {
    const proposal = await loadProposal(tx, {
      eventId,
      proposalEvent: HISTORY_EVENT.proposal,
      dedupEvent: HISTORY_EVENT.dedup,
      namespaces: options.namespaces,
    });
    if (!proposal) throw new NotFoundError('history event', eventId);
    // This very call committed already and is being re-run (its COMMIT reply was lost).
    if (proposal.revertedBy === revertId) return JSON.parse(await revertDetails(tx, revertId)) as RevertResult;
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
      if (d.action !== 'keep_both') result.restoredMemoryIds.push(...(await restoreDuplicate(tx, { now, winnerId, loserId })));
      await reopenDuplicate(tx, { newId: d.newMemoryId, oldId: d.existingMemoryId });
    } else if (details.factMemoryId && proposal.outcome !== OUTCOME.appliedDelete) {
      const factId = details.factMemoryId;
      const fact = await factToForget(tx, { ...base, factId });
      const ref = { id: factId, namespace: fact?.namespace ?? '', actor: options.actor };
      if (fact && (await forgetInTx(tx, ref, FACT_FORGET_REASON, now, derivedId(revertId, factId)))) result.forgottenMemoryIds.push(factId);
    }
    if (details.attribute?.id) {
      const row = await retractAttribute(tx, { now, attributeId: details.attribute.id });
      if (row) {
        result.retractedAttributeIds.push(row.retracted);
        result.restoredAttributeIds.push(...row.restored);
      }
    }
    if (details.targetId && proposal.outcome !== OUTCOME.created) await restoreTarget(tx, details, proposal.sourceMemoryId, now, result);

    await markReverted(tx, eventId, revertId, now);
    await recordEvents(
      tx,
      [
        {
          id: revertId,
          event: REVERTED_EVENT,
          about: { memoryId: proposal.sourceMemoryId },
          reason,
          actor: options.actor,
          outcome: 'reverted',
          details: { ...result, outcome: proposal.outcome, action: details.action ?? null },
        },
      ],
      now,
    );
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
  const retirements = (await targetRetirements(tx, { retiredEvent: HISTORY_EVENT.targetRetired, targetId: details.targetId }))
    .map(
      (r) =>
        JSON.parse(r) as {
          sourceMemoryId?: string;
          newMemoryId?: string | null;
          newAttributeIds?: string[];
          retiredAttributeIds?: string[];
          memorySuperseded?: boolean;
        },
    )
    .filter((d) => d.sourceMemoryId === sourceMemoryId && (d.newMemoryId ?? null) === newMemoryId);
  for (const retirement of retirements) {
    const restored = await restoreAttributes(tx, {
      ids: retirement.retiredAttributeIds ?? [],
      newAttributeIds: retirement.newAttributeIds ?? [],
    });
    result.restoredAttributeIds.push(...restored.filter((id) => !result.restoredAttributeIds.includes(id)));
    if (retirement.memorySuperseded) {
      result.restoredMemoryIds.push(...(await restoreMemory(tx, { now, targetId: details.targetId, newMemoryId })));
    }
  }
}
