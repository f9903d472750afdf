import type { Executor, TxRunner } from '../executor.js';

/**
 * Near-duplicate pairs (a memory linked DUPLICATE_OF to an older one by the write path) and their
 * resolution by the deep path: the link marked reviewed, and the superseded memory marked so.
 */

export interface DuplicatePair {
  newId: string;
  namespace: string;
  newContent: string;
  newHash: string;
  oldId: string;
  oldContent: string;
  oldHash: string;
  similarity: number;
}

// Either direction: an update of the older memory may have re-linked the pair the other way.
export const OPEN_DUPLICATE_PAIR = `
MATCH (m:Memory {id: $id})-[d:DUPLICATE_OF]->(old:Memory)
WHERE m.deletedAt IS NULL AND m.supersededAt IS NULL AND old.deletedAt IS NULL AND old.supersededAt IS NULL
  AND d.reviewedAt IS NULL AND old.namespace = m.namespace
RETURN m.id AS newId, m.namespace AS namespace, m.content AS newContent, m.contentHash AS newHash,
       old.id AS oldId, old.content AS oldContent, old.contentHash AS oldHash, d.similarity AS similarity
ORDER BY d.similarity DESC, old.id LIMIT 1`;

// Applied only while both memories are the versions decided on and the link is still open, or
// resolved by this very decision (eventId): the transaction re-run after a lost COMMIT reply.
export const RESOLVE_DUPLICATE = `
MATCH (m:Memory {id: $newId})-[d:DUPLICATE_OF]->(old:Memory {id: $oldId})
WHERE (d.reviewedAt IS NULL OR d.eventId = $eventId) AND m.contentHash = $newHash AND old.contentHash = $oldHash
  AND m.deletedAt IS NULL AND old.deletedAt IS NULL
SET d.reviewedAt = $now, d.decision = $action, d.eventId = $eventId
RETURN m.id AS id`;

export const SUPERSEDE_DUPLICATE = `
MATCH (winner:Memory {id: $winnerId}), (loser:Memory {id: $loserId})
WHERE loser.supersededAt IS NULL
SET loser.supersededAt = $now, loser.validTo = $now, loser.supersededBy = winner.id, loser.updatedAt = $now
MERGE (winner)-[s:SUPERSEDES]->(loser)
  ON CREATE SET s.method = $action, s.reason = $reason, s.at = $now
RETURN loser.id AS id`;

// After a merge the older memory carries the merged text: only its content is checked.
export const RESOLVE_MERGED_DUPLICATE = `
MATCH (m:Memory {id: $newId})-[d:DUPLICATE_OF]->(old:Memory {id: $oldId})
WHERE (d.reviewedAt IS NULL OR d.eventId = $eventId) AND m.contentHash = $newHash AND m.deletedAt IS NULL AND old.deletedAt IS NULL
SET d.reviewedAt = $now, d.decision = 'merge', d.eventId = $eventId
RETURN m.id AS id`;

/** The memory's closest open near-duplicate partner, if any. */
export async function openDuplicatePair(executor: Executor, id: string): Promise<DuplicatePair | undefined> {
  const [pair] = await executor.read<DuplicatePair & Record<string, unknown>>('dedup.pair', OPEN_DUPLICATE_PAIR, { id });
  return pair;
}

export interface DuplicateResolution {
  newId: string;
  oldId: string;
  newHash: string;
  oldHash: string;
  now: string;
  action: string;
  eventId: string;
}

/** Marks the link reviewed; false when the pair changed since it was read (nothing written). */
export async function resolveDuplicate(tx: TxRunner, r: DuplicateResolution): Promise<boolean> {
  const resolved = await tx.run(r.action === 'merge' ? RESOLVE_MERGED_DUPLICATE : RESOLVE_DUPLICATE, { ...r });
  return resolved.length > 0;
}

export async function supersedeDuplicate(
  tx: TxRunner,
  s: { winnerId: string; loserId: string; now: string; action: string; reason: string },
): Promise<void> {
  await tx.run(SUPERSEDE_DUPLICATE, { ...s });
}
