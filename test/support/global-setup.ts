import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { CYPHER_DIR } from '../../src/app.js';
import { createDriver, Executor, migrate } from '../../src/db/index.js';
import { createLogger } from '../../src/logger.js';
import { startNeo4j, stopNeo4j } from '../../scripts/neo4j-server.mjs';
import { planCypherStatements } from './cypher-plans.js';
import { TEST_NEO4J, TEST_NEO4J_URI } from './test-neo4j.js';

/**
 * Starts a fresh Neo4j for the integration tier (unless TEST_NEO4J_URI points at one) and
 * applies the migrations once; tests then isolate themselves by namespace. The plans of every
 * Cypher statement are taken here, before any test writes (see cypher-plans.ts).
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const external = process.env.TEST_NEO4J_URI;
  if (!external) {
    await stopNeo4j(TEST_NEO4J);
    await rm(join(TEST_NEO4J.home, 'data'), { recursive: true, force: true });
    await startNeo4j(TEST_NEO4J);
  }
  const driver = createDriver({
    uri: external ?? TEST_NEO4J_URI,
    user: 'neo4j',
    password: process.env.TEST_NEO4J_PASSWORD ?? TEST_NEO4J.password,
    database: 'neo4j',
  });
  const executor = new Executor(driver, 'neo4j', createLogger('warn'));
  try {
    await migrate(executor, CYPHER_DIR, createLogger('warn'));
    project.provide('cypherPlans', await planCypherStatements(driver, 'neo4j'));
  } finally {
    await executor.close();
  }
  return async () => {
    if (!external && !process.env.KEEP_TEST_NEO4J) await stopNeo4j(TEST_NEO4J);
  };
}
