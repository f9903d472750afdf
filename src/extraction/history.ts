import { randomUUID } from 'node:crypto';
import type { TxRunner } from '../db/executor.js';

/** Provenance of everything the deep path writes (Memory.who, HistoryEvent.actor). */
export const PIPELINE_ACTOR = 'pipeline-v2';
export const EXTRACTED_FACT_WHY = 'extracted-fact';

export const HISTORY_EVENT = {
  extraction: 'pipeline.extraction',
  proposal: 'pipeline.proposal',
  superseded: 'attribute.superseded',
  targetRetired: 'pipeline.target-retired',
  hints: 'pipeline.hints',
} as const;

export interface HistoryEventInput {
  memoryId: string;
  event: string;
  outcome: string | null;
  reason: string | null;
  confidence: number | null;
  /** Serialized to the `details` JSON string. */
  details: Record<string, unknown>;
}

const RECORD_HISTORY = `
UNWIND $events AS ev
MATCH (m:Memory {id: ev.memoryId})
CREATE (h:HistoryEvent {
  id: ev.id, namespace: m.namespace, event: ev.event, name: ev.event + coalesce(' ' + ev.outcome, ''),
  memoryId: m.id, reason: ev.reason, actor: $actor, model: $model, confidence: ev.confidence,
  outcome: ev.outcome, at: $now, details: ev.details })-[:ABOUT]->(m)`;

/** Audit records, inside the caller's transaction so they commit with what they describe. */
export async function recordHistory(tx: TxRunner, events: readonly HistoryEventInput[], context: { now: string; model: string }): Promise<void> {
  if (events.length === 0) return;
  const rows = events.map((e) => ({ ...e, id: randomUUID(), details: JSON.stringify(e.details) }));
  await tx.run(RECORD_HISTORY, { events: rows, now: context.now, model: context.model, actor: PIPELINE_ACTOR });
}
