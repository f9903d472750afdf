import neo4j from 'neo4j-driver';
import type { Executor } from '../executor.js';

/**
 * The embedding tracker's queries: chunks of live memories whose
 * vector was made by another model than the running one (or is not known to be of their text).
 * `$namespaces` null means every namespace (a replica scoped by WORKER_NAMESPACES passes its own).
 */

/** The reported queue depth stops counting here: a model switch makes every chunk stale. */
export const STALE_COUNT_CAP = 10_000;

const SCOPE = `($namespaces IS NULL OR ch.namespace IN $namespaces)`;

// Chunks written under another model, found by two range seeks of chunk_embedding_model: every
// writer stamps the model and the hash of the text it embedded, and migration 015 gave older or
// inconsistent chunks a model ('' = unknown), so "stale" is "embeddingModel <> $model". Reading
// from the index keeps a converged store's cycle at a few index hits instead of a chunk scan.
const STALE_CHUNKS = `
CALL () {
  MATCH (ch:Chunk) WHERE ch.embeddingModel < $model RETURN ch
  UNION ALL
  MATCH (ch:Chunk) WHERE ch.embeddingModel > $model RETURN ch
}
WITH ch WHERE ${SCOPE}
MATCH (m:Memory)-[:HAS_CHUNK]->(ch)
WHERE m.deletedAt IS NULL`;

export const FIND_STALE = `${STALE_CHUNKS}
RETURN ch.id AS id, ch.text AS text, ch.contentHash AS contentHash
LIMIT $limit`;

export const COUNT_STALE = `${STALE_CHUNKS}
WITH ch LIMIT $cap
RETURN count(ch) AS n`;

// Only a chunk still holding the text that was embedded gets the vector (a rewrite since the
// read replaced the chunk). A memory is stamped once every chunk of it is on the model.
// Setting the same vector and stamps again changes nothing: safe to re-run.
export const WRITE_VECTORS = `
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
  WHERE NOT EXISTS { (m)-[:HAS_CHUNK]->(o:Chunk) WHERE o.embeddingModel <> $model }
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

export async function findStaleChunks(executor: Executor, scope: TrackerScope, limit: number): Promise<StaleChunk[]> {
  return executor.read<StaleChunk & Record<string, unknown>>('embeddings.stale', FIND_STALE, { ...scope, limit: neo4j.int(limit) });
}

export async function countStaleChunks(executor: Executor, scope: TrackerScope): Promise<number> {
  const [row] = await executor.read<{ n: number }>('embeddings.stale-count', COUNT_STALE, { ...scope, cap: neo4j.int(STALE_COUNT_CAP) });
  return Number(row?.n ?? 0);
}

/** One batch, one transaction. Returns how many chunks got their vector. */
export async function writeChunkVectors(
  executor: Executor,
  scope: TrackerScope,
  rows: Array<{ id: string; contentHash: string; embedding: number[] }>,
): Promise<number> {
  if (rows.length === 0) return 0;
  const [row] = await executor.write<{ written: number | null }>('embeddings.write', WRITE_VECTORS, {
    ...scope,
    rows,
    now: new Date().toISOString(),
  });
  return Number(row?.written ?? 0);
}
