import { fileURLToPath } from 'node:url';
import { schemaReadiness } from './db/index.js';
import type { Services } from './app.js';
import type { LlmHealth } from './llm/index.js';

export const SERVICE_VERSION = '0.1.0';
// The same folder app.ts migrates from (app.ts's CYPHER_DIR; not imported to keep health free of the composition root).
const CYPHER_DIR = fileURLToPath(new URL('../cypher/', import.meta.url));

export interface HealthReport {
  ok: boolean;
  neo4j: {
    connected: boolean;
    schemaVersion: number;
    /** The highest migration this build ships. */
    expectedSchemaVersion: number;
    /** Indexes not ONLINE yet (populating or failed); readiness waits for none. */
    indexesNotOnline: string[];
    error: string | null;
  };
  embedding: { loaded: boolean; model: string; dimensions: number };
  /** The deep path's provider(s) and whether each answers; not part of `ok` (writes and recall need no model). */
  llm: LlmHealth;
  version: string;
}

/**
 * Ready: Neo4j reachable, its schema at (or past) this build's version with every index ONLINE,
 * and the embedding model loaded. A replica behind a load balancer takes traffic only then.
 */
export async function checkHealth(services: Pick<Services, 'executor' | 'embedder' | 'llmHealth'>): Promise<HealthReport> {
  const llm = services.llmHealth();
  const neo4j = await schemaReadiness(services.executor, CYPHER_DIR)
    .then((s) => ({
      connected: true,
      ready: s.ready,
      schemaVersion: s.version,
      expectedSchemaVersion: s.expectedVersion,
      indexesNotOnline: s.notOnline.map((i) => `${i.name} (${i.state})`),
      error: null,
    }))
    .catch((error: Error) => ({
      connected: false,
      ready: false,
      schemaVersion: 0,
      expectedSchemaVersion: 0,
      indexesNotOnline: [],
      error: error.message,
    }));
  const embedding = { loaded: services.embedder.isLoaded(), model: services.embedder.modelId, dimensions: services.embedder.dimensions };
  const { ready, ...report } = neo4j;
  return { ok: ready && embedding.loaded, neo4j: report, embedding, llm: await llm, version: SERVICE_VERSION };
}
