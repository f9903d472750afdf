import { countingStep, IN_SCOPE, type PurgeStep } from './purge-step.js';

// Step 3, tombstones: only memories the first two steps have emptied, so a batch cut short
// upstream never leaves chunks or mentions behind. Their hints (search text) and finished or
// waiting jobs go with them; a leased job is left to its worker, which finds the memory gone.
export const PURGE_EXPIRED_TOMBSTONES = `
MATCH (m:Memory)
WHERE m.deletedAt < $cutoff AND ${IN_SCOPE('m')}
  AND NOT EXISTS { (m)-[:HAS_CHUNK]->() } AND NOT EXISTS { (m)-[:MENTIONS]->() }
WITH m LIMIT $limit
CALL (m) {
  OPTIONAL MATCH (h:Hint)-[:HINT_OF]->(m)
  DETACH DELETE h
}
CALL (m) {
  OPTIONAL MATCH (j:Job)-[:FOR]->(m) WHERE j.status <> 'leased'
  DETACH DELETE j
}
DETACH DELETE m
RETURN count(*) AS deleted`;

export const PREVIEW_EXPIRED_TOMBSTONES = `
MATCH (m:Memory)
WHERE m.deletedAt < $cutoff AND ${IN_SCOPE('m')}
WITH m LIMIT $limit
RETURN count(*) AS deleted`;

export const purgeTombstones: PurgeStep = countingStep('tombstones', 'tombstone', PURGE_EXPIRED_TOMBSTONES, PREVIEW_EXPIRED_TOMBSTONES);
