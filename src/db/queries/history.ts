import type { TxRunner } from '../executor.js';

/** Audit events recorded by the API's own mutations (the pipeline's are in src/extraction/history.ts). */
export const MEMORY_EVENT = {
  forgotten: 'forgotten',
  pinned: 'pinned',
  unpinned: 'unpinned',
  updated: 'updated',
} as const;

export interface MemoryEventInput {
  memoryId: string;
  event: (typeof MEMORY_EVENT)[keyof typeof MEMORY_EVENT];
  actor: string;
  reason?: string | null;
  /** Serialized to the `details` JSON string. */
  details?: Record<string, unknown> | null;
}

const RECORD_MEMORY_EVENT = `
MATCH (m:Memory {id: $memoryId})
CREATE (h:HistoryEvent {
  id: randomUUID(), namespace: m.namespace, event: $event, name: $event, memoryId: m.id,
  reason: $reason, actor: $actor, outcome: $event, at: $now, details: $details })-[:ABOUT]->(m)`;

/** Inside the mutation's transaction, so the audit commits with the change it describes. */
export async function recordMemoryEvent(tx: TxRunner, input: MemoryEventInput, now: string): Promise<void> {
  await tx.run(RECORD_MEMORY_EVENT, {
    memoryId: input.memoryId,
    event: input.event,
    actor: input.actor,
    reason: input.reason ?? null,
    details: input.details ? JSON.stringify(input.details) : null,
    now,
  });
}
