import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startNeo4j, stopNeo4j } from '../../scripts/neo4j-server.mjs';

const NEO4J_DIR = fileURLToPath(new URL('../../.neo4j/', import.meta.url));

/**
 * A throwaway Neo4j for one benchmark run, wiped at start, on ports of its own so benchmarks
 * never touch the dev or test instances. BENCH_NEO4J_URI uses an existing one instead.
 */
export async function startBenchNeo4j(
  name: string,
  boltPort: number,
  { keep = false }: { keep?: boolean } = {},
): Promise<{ uri: string; password: string; stop: () => Promise<void> }> {
  if (process.env.BENCH_NEO4J_URI) {
    return { uri: process.env.BENCH_NEO4J_URI, password: process.env.BENCH_NEO4J_PASSWORD ?? 'mnemograph-dev', stop: async () => undefined };
  }
  const options = { home: join(NEO4J_DIR, name), boltPort, httpPort: boltPort - 213, password: 'mnemograph-bench', heapMb: 2048, pageCacheMb: 1024, quiet: true };
  // --keep reuses the previous run's data (re-ingesting it is then all exact duplicates, fast).
  if (!keep) {
    await stopNeo4j(options);
    await rm(join(options.home, 'data'), { recursive: true, force: true });
  }
  const neo4j = await startNeo4j(options);
  return { uri: neo4j.boltUrl, password: options.password, stop: keep ? async () => undefined : () => stopNeo4j(options) };
}
