import { redactJsonValue, redactStoredOrNull } from '../../redaction/index.js';
import type { TxRunner } from '../executor.js';

/** Audit events recorded by the API's own mutations (the pipeline's are in src/deep/history.ts). */
export const MEMORY_EVENT = {
  forgotten: 'forgotten',
  pinned: 'pinned',
  unpinned: 'unpinned',
  updated: 'updated',
} as const;

export interface MemoryEventInput {
  /** Made before the transaction, so a re-run of it records the event once. */
  id: string;
  memoryId: string;
  event: (typeof MEMORY_EVENT)[keyof typeof MEMORY_EVENT];
  actor: string;
  reason?: string | null;
  /** Serialized to the `details` JSON string. */
  details?: Record<string, unknown> | null;
}

export const RECORD_MEMORY_EVENT = `
MATCH (m:Memory {id: $memoryId})
MERGE (h:HistoryEvent {id: $id})
  ON CREATE SET h.namespace = m.namespace, h.event = $event, h.name = $event, h.memoryId = m.id,
    h.reason = $reason, h.actor = $actor, h.outcome = $event, h.at = $now, h.details = $details
MERGE (h)-[:ABOUT]->(m)`;

/** Inside the mutation's transaction, so the audit commits with the change it describes. */
export async function recordMemoryEvent(tx: TxRunner, input: MemoryEventInput, now: string): Promise<void> {
  await tx.run(RECORD_MEMORY_EVENT, {
    id: input.id,
    memoryId: input.memoryId,
    event: input.event,
    actor: input.actor,
    reason: redactStoredOrNull(input.reason),
    details: input.details ? JSON.stringify(redactJsonValue(input.details)) : null,
    now,
  });
}
