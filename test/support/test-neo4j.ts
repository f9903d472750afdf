import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The throwaway Neo4j of the test run: its own ports and data folder, wiped each run. */
export const TEST_NEO4J = {
  home: join(fileURLToPath(new URL('../../.neo4j/', import.meta.url)), 'test'),
  boltPort: Number(process.env.TEST_NEO4J_BOLT_PORT ?? 17687),
  httpPort: Number(process.env.TEST_NEO4J_HTTP_PORT ?? 17474),
  password: 'mnemograph-test',
  heapMb: 1024,
  pageCacheMb: 512,
};

export const TEST_NEO4J_URI = `bolt://127.0.0.1:${TEST_NEO4J.boltPort}`;

/** The connection settings a service process of the tests is started with (the run's Neo4j, or TEST_NEO4J_URI's). */
export const TEST_NEO4J_ENV = {
  NEO4J_URI: process.env.TEST_NEO4J_URI ?? TEST_NEO4J_URI,
  NEO4J_PASSWORD: process.env.TEST_NEO4J_PASSWORD ?? TEST_NEO4J.password,
};
