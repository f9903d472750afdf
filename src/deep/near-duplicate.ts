import type { DuplicatePair, Executor, TxRunner } from '../db/index.js';
import { openDuplicatePair, resolveDuplicate, supersedeDuplicate } from '../db/index.js';
import type { LlmProvider } from '../llm/index.js';
import type { Logger } from '../logger.js';
import { HISTORY_EVENT, historyId, PIPELINE_ACTOR, recordHistory } from './pipeline-provenance.js';
import { writesAllowed } from './mode.js';
import { decideNearDuplicate, type NearDuplicateDecision } from './near-duplicate-decide.js';
import type { PipelineMode } from './extraction-types.js';

/**
 * A `dedup` job: the newer memory of a near-duplicate pair (linked DUPLICATE_OF by the write
 * path) against its closest open partner. The model decides; in a writing mode it is applied:
 * merge — the newer text folded into the older memory through the update path, the newer one
 * superseded by it; replace — the older one superseded by the newer; keep_both — the link is
 * marked reviewed. Superseded memories leave default recall and stay queryable. The link's
 * resolution and its audit event commit together, with the supersession they record.
 */

/** The update path (UpdateService.update): a memory's content rewritten in place. */
export interface MemoryUpdater {
  update(input: { id: string; namespace: string; content: string; actor: string }): Promise<unknown>;
}

export interface NearDuplicateDeps {
  executor: Executor;
  provider: LlmProvider;
  /** Without it a merge decision is recorded, not applied. */
  updater?: MemoryUpdater;
  logger: Logger;
  settings: { mode: PipelineMode; llmTimeoutMs: number; minConfidence: number };
}

export interface NearDuplicateResult {
  outcome: string;
  action: string | null;
  newMemoryId: string;
  existingMemoryId: string | null;
  similarity: number | null;
  warning: string | null;
}

export const DEDUP_OUTCOME = {
  noPair: 'skipped:no_open_near_duplicate',
  unusable: 'dropped:invalid_decision',
  lowConfidence: 'skipped:low_decision_confidence',
  noUpdatePath: 'blocked:no_update_path',
  changed: 'discarded:memory_changed',
} as const;

export async function resolveNearDuplicate(deps: NearDuplicateDeps, memoryId: string): Promise<NearDuplicateResult> {
  const { executor, provider, settings } = deps;
  const pair = await openDuplicatePair(executor, memoryId);
  if (!pair)
    return { outcome: DEDUP_OUTCOME.noPair, action: null, newMemoryId: memoryId, existingMemoryId: null, similarity: null, warning: null };

  const { decision, warning } = await decideNearDuplicate(provider, pair.oldContent, pair.newContent, { timeoutMs: settings.llmTimeoutMs });
  const base = { newMemoryId: pair.newId, existingMemoryId: pair.oldId, similarity: pair.similarity, warning };
  const eventId = historyId();
  const now = () => new Date().toISOString();

  const verdict = !decision
    ? DEDUP_OUTCOME.unusable
    : settings.mode === 'shadow' || settings.mode === 'frozen'
      ? settings.mode
      : decision.confidence < settings.minConfidence
        ? DEDUP_OUTCOME.lowConfidence
        : decision.action === 'merge' && !deps.updater
          ? DEDUP_OUTCOME.noUpdatePath
          : null;
  if (verdict || !decision || !writesAllowed(settings.mode)) {
    const outcome = verdict ?? settings.mode;
    await executor.writeTx('dedup.audit', (tx) => audit(tx, eventId, pair, decision, outcome, null, now(), provider.model));
    return { ...base, outcome, action: decision?.action ?? null };
  }

  const at = now();
  if (decision.action === 'merge') {
    // The update path re-embeds, re-links and re-queues the older memory with the merged text.
    await deps.updater!.update({ id: pair.oldId, namespace: pair.namespace, content: decision.merged!, actor: PIPELINE_ACTOR });
  }
  const outcome = `applied:${decision.action}`;
  const applied = await executor.writeTx('dedup.apply', async (tx) => {
    const params = {
      newId: pair.newId,
      oldId: pair.oldId,
      newHash: pair.newHash,
      oldHash: pair.oldHash,
      now: at,
      action: decision.action,
      eventId,
    };
    if (!(await resolveDuplicate(tx, params))) return false;
    if (decision.action === 'merge')
      await supersedeDuplicate(tx, { winnerId: pair.oldId, loserId: pair.newId, now: at, action: 'merge', reason: decision.reason });
    if (decision.action === 'replace')
      await supersedeDuplicate(tx, { winnerId: pair.newId, loserId: pair.oldId, now: at, action: 'replace', reason: decision.reason });
    await audit(
      tx,
      eventId,
      pair,
      decision,
      outcome,
      decision.action === 'merge' ? { previousContent: pair.oldContent } : null,
      at,
      provider.model,
    );
    return true;
  });
  if (!applied) {
    await executor.writeTx('dedup.audit', (tx) => audit(tx, eventId, pair, decision, DEDUP_OUTCOME.changed, null, now(), provider.model));
    deps.logger.info({ memoryId, existingId: pair.oldId }, 'near-duplicate pair changed while it was decided; nothing applied');
    return { ...base, outcome: DEDUP_OUTCOME.changed, action: decision.action };
  }
  return { ...base, outcome, action: decision.action };
}

async function audit(
  tx: TxRunner,
  eventId: string,
  pair: DuplicatePair,
  decision: NearDuplicateDecision | null,
  outcome: string,
  extra: Record<string, unknown> | null,
  now: string,
  model: string,
): Promise<void> {
  await recordHistory(
    tx,
    [
      {
        id: eventId,
        memoryId: pair.newId,
        event: HISTORY_EVENT.dedup,
        outcome,
        reason: decision?.reason ?? null,
        confidence: decision?.confidence ?? null,
        details: {
          action: decision?.action ?? null,
          newMemoryId: pair.newId,
          existingMemoryId: pair.oldId,
          similarity: pair.similarity,
          mergedContent: decision?.merged ?? null,
          ...extra,
        },
      },
    ],
    { now, model },
  );
}
