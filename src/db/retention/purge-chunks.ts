import { countingStep, IN_SCOPE, type PurgeStep } from './purge-step.js';

// Step 2, embeddings: the chunks (text and vector) of expired tombstones.
const MATCH_EXPIRED_CHUNKS = `
MATCH (m:Memory)-[:HAS_CHUNK]->(c:Chunk)
WHERE m.deletedAt < $cutoff AND ${IN_SCOPE('m')}`;

export const PURGE_EXPIRED_CHUNKS = `${MATCH_EXPIRED_CHUNKS}
WITH c LIMIT $limit
DETACH DELETE c
RETURN count(*) AS deleted`;

export const PREVIEW_EXPIRED_CHUNKS = `${MATCH_EXPIRED_CHUNKS}
WITH c LIMIT $limit
RETURN count(*) AS deleted`;

export const purgeChunks: PurgeStep = countingStep('embeddings', 'tombstone', PURGE_EXPIRED_CHUNKS, PREVIEW_EXPIRED_CHUNKS);
