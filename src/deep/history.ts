import { randomUUID } from 'node:crypto';
import { redactJsonValue, redactStoredOrNull } from '../redaction/index.js';
import type { TxRunner } from '../db/index.js';

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
} as const;

export interface HistoryEventInput {
  /** Made before the transaction (see historyId), so a re-run of it records the event once. */
  id: string;
  memoryId: string;
  event: string;
  outcome: string | null;
  reason: string | null;
  confidence: number | null;
  /** Serialized to the `details` JSON string. */
  details: Record<string, unknown>;
  /** Who caused it, when not the pipeline (an agent's asserted fact). */
  actor?: string;
}

const RECORD_HISTORY = `
UNWIND $events AS ev
MATCH (m:Memory {id: ev.memoryId})
MERGE (h:HistoryEvent {id: ev.id})
  ON CREATE SET h.namespace = m.namespace, h.event = ev.event, h.name = ev.event + coalesce(' ' + ev.outcome, ''),
    h.memoryId = m.id, h.reason = ev.reason, h.actor = coalesce(ev.actor, $actor), h.model = $model, h.confidence = ev.confidence,
    h.outcome = ev.outcome, h.at = $now, h.details = ev.details
MERGE (h)-[:ABOUT]->(m)`;

export function historyId(): string {
  return randomUUID();
}

/** Audit records, inside the caller's transaction so they commit with what they describe. */
export async function recordHistory(
  tx: TxRunner,
  events: readonly HistoryEventInput[],
  context: { now: string; model: string },
): Promise<void> {
  if (events.length === 0) return;
  // Reasons and details carry model output and old content: redacted like every stored string.
  const rows = events.map((e) => ({
    ...e,
    actor: e.actor ?? null,
    reason: redactStoredOrNull(e.reason),
    details: JSON.stringify(redactJsonValue(e.details)),
  }));
  await tx.run(RECORD_HISTORY, { events: rows, now: context.now, model: context.model, actor: PIPELINE_ACTOR });
}
