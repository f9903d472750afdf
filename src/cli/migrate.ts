import { CYPHER_DIR } from '../app.js';
import { loadConfig } from '../config/index.js';
import { createDriver, Executor, migrate } from '../db/index.js';
import { createLogger } from '../logger.js';
import { localPassword } from '../../scripts/neo4j-server.mjs';

/** `npm run migrate`: applies pending schema migrations to NEO4J_URI (default bolt://127.0.0.1:7687). */
const config = loadConfig();
const logger = createLogger(config.LOG_LEVEL);
const uri = config.NEO4J_URI ?? `bolt://127.0.0.1:${config.NEO4J_BOLT_PORT}`;
// Without NEO4J_PASSWORD, the local Neo4j's generated one (scripts/neo4j-server.mjs).
const password = config.NEO4J_PASSWORD ?? localPassword(config.NEO4J_HOME_DIR ? { home: config.NEO4J_HOME_DIR } : {});
const executor = new Executor(
  createDriver({ uri, user: config.NEO4J_USER, password, database: config.NEO4J_DATABASE }),
  config.NEO4J_DATABASE,
  logger,
  {
    readMs: config.NEO4J_READ_TIMEOUT_MS,
    writeMs: config.NEO4J_WRITE_TIMEOUT_MS,
  },
);
try {
  const report = await migrate(executor, CYPHER_DIR, logger);
  process.stdout.write(`schema at version ${report.version}; applied now: ${report.applied.length ? report.applied.join(', ') : 'none'}\n`);
} catch (error) {
  process.stderr.write(`migration failed: ${(error as Error).message}\n`);
  process.exitCode = 1;
} finally {
  await executor.close();
}
