import neo4j from 'neo4j-driver';
import { MnemographError } from '../errors.js';
import type { Logger } from '../logger.js';
import type { Executor } from './executor.js';
import { INDEX_ONLINE_TIMEOUT_S, retryTransient, SCHEMA_STATEMENT_TIMEOUT_MS, underMigrationLock } from './schema-migrations.js';

/**
 * The chunk vector index follows the embedding model's dimension. Migration 017 creates it for
 * 384 (the local models'); a model of another dimension (a provider's, EMBEDDING_PROVIDER=openai)
 * gets it rebuilt at start-up, under the migration lock, with the same name and every other
 * option as 017's, so every statement that searches it (src/db/search/vector.ts) stays as it is.
 * A vector of another length than the index's is not indexed (Neo4j skips it), so until the
 * embedding tracker has re-embedded the store under the new model, the vector leg finds only
 * what it re-embedded; the keyword legs find everything meanwhile.
 */
export const CHUNK_VECTOR_INDEX = 'chunk_embedding';

const INDEX_DIMENSIONS = `
SHOW VECTOR INDEXES YIELD name, options
WHERE name = $name
RETURN options.indexConfig['vector.dimensions'] AS dimensions`;
const DROP_INDEX = `DROP INDEX ${CHUNK_VECTOR_INDEX} IF EXISTS`;
// Migration 017's index, the dimension aside (its comment says why each option).
const CREATE_INDEX = `
CREATE VECTOR INDEX ${CHUNK_VECTOR_INDEX} IF NOT EXISTS
FOR (c:Chunk) ON c.embedding
WITH [c.namespace]
OPTIONS $options`;

const AWAIT_INDEX = `CALL db.awaitIndex($name, ${INDEX_ONLINE_TIMEOUT_S})`;

const indexOptions = (dimensions: number) => ({
  indexConfig: {
    'vector.dimensions': neo4j.int(dimensions),
    'vector.similarity_function': 'cosine',
    'vector.quantization.type': 'NONE',
    'vector.default_search_expansion_factor': 2,
  },
});

export interface VectorIndexReport {
  /** The index's dimension before; null when there was none. */
  previous: number | null;
  dimensions: number;
  rebuilt: boolean;
}

/** The chunk vector index's dimension, or null when it does not exist. */
export async function vectorIndexDimensions(executor: Executor): Promise<number | null> {
  const [row] = await executor.read<{ dimensions: unknown }>('vectorIndex.dimensions', INDEX_DIMENSIONS, { name: CHUNK_VECTOR_INDEX });
  return row?.dimensions == null ? null : Number(row.dimensions);
}

/**
 * Makes the chunk vector index one of `dimensions` (the loaded embedder's), rebuilding it when it
 * has another; a no-op when it already has it. Run after migrate() (whose lock it takes).
 */
export async function ensureVectorIndex(executor: Executor, dimensions: number, logger: Logger): Promise<VectorIndexReport> {
  if (!Number.isInteger(dimensions) || dimensions < 1 || dimensions > 4096)
    throw new MnemographError(
      'CONFIG_INVALID',
      `the embedding model's dimension ${dimensions} is not one a vector index takes (1 to 4,096)`,
    );
  const previous = await vectorIndexDimensions(executor);
  if (previous === dimensions) return { previous, dimensions, rebuilt: false };
  let rebuilt = false;
  await underMigrationLock(executor, logger, async () => {
    const current = await vectorIndexDimensions(executor);
    if (current === dimensions) return;
    const schema = (operation: string, cypher: string, params: Record<string, unknown> = {}) =>
      retryTransient(operation, () => executor.autoCommit(operation, cypher, params, { timeoutMs: SCHEMA_STATEMENT_TIMEOUT_MS }), logger);
    await schema('vectorIndex.drop', DROP_INDEX);
    await schema('vectorIndex.create', CREATE_INDEX, { options: indexOptions(dimensions) });
    rebuilt = true;
    logger.info({ index: CHUNK_VECTOR_INDEX, from: current, to: dimensions }, 'vector index rebuilt for the embedding model');
  });
  await executor.autoCommit(
    'vectorIndex.await',
    AWAIT_INDEX,
    { name: CHUNK_VECTOR_INDEX },
    { timeoutMs: (INDEX_ONLINE_TIMEOUT_S + 10) * 1000 },
  );
  return { previous, dimensions, rebuilt };
}
