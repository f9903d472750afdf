import type { TxRunner } from '../executor.js';

/** Prospective indexing: the questions a memory answers, as Hint nodes the full-text index reads. */

// Re-running a hints job replaces the memory's hints instead of adding a second set.
export const REPLACE_HINTS = `
MATCH (m:Memory {id: $memoryId})
OPTIONAL MATCH (old:Hint)-[:HINT_OF]->(m)
DETACH DELETE old
WITH DISTINCT m
UNWIND $hints AS h
CREATE (:Hint {id: h.id, namespace: m.namespace, namespaceToken: m.namespaceToken, text: h.text, name: left(h.text, 60), createdAt: $now})-[:HINT_OF]->(m)`;

/** Hint ids are made before the transaction. */
export async function replaceHints(
  tx: TxRunner,
  memoryId: string,
  hints: ReadonlyArray<{ id: string; text: string }>,
  now: string,
): Promise<void> {
  await tx.run(REPLACE_HINTS, { memoryId, hints, now });
}
