import { randomUUID } from 'node:crypto';
import { recordEvents, type HistoryEventName, type TxRunner } from '../db/index.js';

/** Provenance of everything the deep path writes (Memory.who, HistoryEvent.actor). */
export const PIPELINE_ACTOR = 'pipeline-v2';
export const EXTRACTED_FACT_WHY = 'extracted-fact';

export const HISTORY_EVENT = {
  extraction: 'pipeline.extraction',
  proposal: 'pipeline.proposal',
  superseded: 'attribute.superseded',
  targetRetired: 'pipeline.target-retired',
  hints: 'pipeline.hints',
  stale: 'pipeline.stale',
  dedup: 'pipeline.dedup',
  classify: 'pipeline.classify',
  compress: 'pipeline.compress',
} as const satisfies Record<string, HistoryEventName>;

/** An audit record of the deep path, about one memory. */
export interface HistoryEventInput {
  /** Made before the transaction (see historyId), so a re-run of it records the event once. */
  id: string;
  memoryId: string;
  event: HistoryEventName;
  outcome: string | null;
  reason: string | null;
  confidence: number | null;
  /** Serialized to the `details` JSON string. */
  details: Record<string, unknown>;
  /** Who caused it, when not the pipeline (an agent's asserted fact). */
  actor?: string;
}

export function historyId(): string {
  return randomUUID();
}

/**
 * Audit records, inside the caller's transaction so they commit with what they describe; their
 * reasons and details (model output, old content) are redacted where they are recorded.
 */
export async function recordHistory(
  tx: TxRunner,
  events: readonly HistoryEventInput[],
  context: { now: string; model: string },
): Promise<void> {
  await recordEvents(
    tx,
    events.map((e) => ({
      id: e.id,
      event: e.event,
      name: e.outcome == null ? e.event : `${e.event} ${e.outcome}`,
      about: { memoryId: e.memoryId },
      actor: e.actor ?? PIPELINE_ACTOR,
      model: context.model,
      outcome: e.outcome,
      reason: e.reason,
      confidence: e.confidence,
      details: e.details,
    })),
    context.now,
  );
}
