import { randomUUID } from 'node:crypto';
import { createServices, type AppOptions, type Services } from '../../src/app.js';
import { loadConfig } from '../../src/config/index.js';
import { createEmbedder, type Embedder } from '../../src/embedding/index.js';
import { createLogger } from '../../src/logger.js';
import { TEST_NEO4J, TEST_NEO4J_URI } from './test-neo4j.js';

let sharedEmbedder: Embedder | undefined;

/** One embedder per test file: loading the model takes about a second. */
export function testEmbedder(): Embedder {
  sharedEmbedder ??= createEmbedder({ modelDir: process.env.EMBEDDING_MODEL_DIR ?? new URL('../../.models', import.meta.url).pathname });
  return sharedEmbedder;
}

/** Services against the test Neo4j with config overrides (as environment variables). */
export function testServices(env: Record<string, string> = {}, options: Partial<AppOptions> = {}): Services {
  const config = loadConfig({
    NEO4J_PASSWORD: process.env.TEST_NEO4J_PASSWORD ?? TEST_NEO4J.password,
    LOG_LEVEL: 'warn',
    WORKER_ENABLED: 'false',
    ...env,
  });
  return createServices(config, createLogger(config.LOG_LEVEL), {
    neo4jUri: process.env.TEST_NEO4J_URI ?? TEST_NEO4J_URI,
    embedder: testEmbedder(),
    ...options,
  });
}

/** A namespace no other test uses; `cleanNamespace` removes everything in it. */
export function uniqueNamespace(prefix = 't'): string {
  return `${prefix}-${randomUUID().slice(0, 12)}`;
}

/** Erases the namespace the way production does (`deleteNamespace`, what the GraphQL mutation runs). */
export async function cleanNamespace(services: Services, namespace: string): Promise<void> {
  await services.knowledge.deleteNamespace(namespace, namespace);
}
