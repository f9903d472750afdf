import neo4j from 'neo4j-driver';
import type { Executor } from '../executor.js';

/**
 * The embedding tracker's queries (seed 004 "Embedding Tracker"): chunks of live memories whose
 * vector is missing, was made from other text (embeddedHash ≠ contentHash) or by another model.
 * `$namespaces` null means every namespace (a replica scoped by WORKER_NAMESPACES passes its own).
 */

const STALE = `
  (ch.embeddingModel IS NULL OR ch.embeddingModel <> $model OR ch.embeddedHash IS NULL
   OR ch.embeddedHash <> ch.contentHash OR ch.embedding IS NULL)`;
const SCOPE = `($namespaces IS NULL OR ch.namespace IN $namespaces)`;

// Chunks written before the model was stamped on them: their memory names the model and the
// chunk's hash is of the text embedded, so they are adopted without re-embedding.
const ADOPT_LEGACY = `
MATCH (m:Memory)-[:HAS_CHUNK]->(ch:Chunk)
WHERE ch.embeddingModel IS NULL AND ${SCOPE} AND m.embeddingModel = $model AND ch.embedding IS NOT NULL
WITH ch LIMIT $limit
SET ch.embeddingModel = $model, ch.embeddedHash = ch.contentHash
RETURN count(*) AS adopted`;

const FIND_STALE = `
MATCH (m:Memory)-[:HAS_CHUNK]->(ch:Chunk)
WHERE ${SCOPE} AND m.deletedAt IS NULL AND ${STALE}
RETURN ch.id AS id, ch.text AS text, ch.contentHash AS contentHash
LIMIT $limit`;

const COUNT_STALE = `
MATCH (m:Memory)-[:HAS_CHUNK]->(ch:Chunk)
WHERE ${SCOPE} AND m.deletedAt IS NULL AND ${STALE}
RETURN count(ch) AS n`;

// Only a chunk still holding the text that was embedded gets the vector (a rewrite since the
// read replaced the chunk). A memory is stamped once every chunk of it is on the model.
// Setting the same vector and stamps again changes nothing: safe to re-run.
const WRITE_VECTORS = `
UNWIND $rows AS r
MATCH (ch:Chunk {id: r.id})
WHERE ch.contentHash = r.contentHash
CALL db.create.setNodeVectorProperty(ch, 'embedding', r.embedding)
SET ch.embeddingModel = $model, ch.embeddedHash = r.contentHash, ch.embeddedAt = $now
WITH collect(ch) AS chunks
CALL (chunks) {
  UNWIND chunks AS ch
  MATCH (m:Memory)-[:HAS_CHUNK]->(ch)
  WITH DISTINCT m
  WHERE NOT EXISTS { (m)-[:HAS_CHUNK]->(o:Chunk) WHERE o.embeddingModel IS NULL OR o.embeddingModel <> $model }
  SET m.embeddingModel = $model
}
RETURN size(chunks) AS written`;

export interface StaleChunk {
  id: string;
  text: string;
  contentHash: string;
}

export interface TrackerScope {
  model: string;
  namespaces: readonly string[] | null;
}

export async function adoptLegacyChunks(executor: Executor, scope: TrackerScope, limit: number): Promise<number> {
  const [row] = await executor.write<{ adopted: number }>('embeddings.adopt', ADOPT_LEGACY, { ...scope, limit: neo4j.int(limit) });
  return Number(row?.adopted ?? 0);
}

export async function findStaleChunks(executor: Executor, scope: TrackerScope, limit: number): Promise<StaleChunk[]> {
  return executor.read<StaleChunk & Record<string, unknown>>('embeddings.stale', FIND_STALE, { ...scope, limit: neo4j.int(limit) });
}

export async function countStaleChunks(executor: Executor, scope: TrackerScope): Promise<number> {
  const [row] = await executor.read<{ n: number }>('embeddings.stale-count', COUNT_STALE, { ...scope });
  return Number(row?.n ?? 0);
}

/** One batch, one transaction. Returns how many chunks got their vector. */
export async function writeChunkVectors(executor: Executor, scope: TrackerScope, rows: Array<{ id: string; contentHash: string; embedding: number[] }>): Promise<number> {
  if (rows.length === 0) return 0;
  const [row] = await executor.write<{ written: number | null }>('embeddings.write', WRITE_VECTORS, { ...scope, rows, now: new Date().toISOString() });
  return Number(row?.written ?? 0);
}
