import { schemaVersion } from './db/index.js';
import type { Services } from './app.js';

export const SERVICE_VERSION = '0.1.0';

export interface HealthReport {
  ok: boolean;
  neo4j: { connected: boolean; schemaVersion: number; error: string | null };
  embedding: { loaded: boolean; model: string; dimensions: number };
  version: string;
}

/** Neo4j reachable with the schema applied, and the embedding model loaded. */
export async function checkHealth(services: Pick<Services, 'executor' | 'embedder'>): Promise<HealthReport> {
  const neo4j = await schemaVersion(services.executor)
    .then((version) => ({ connected: true, schemaVersion: version, error: null }))
    .catch((error: Error) => ({ connected: false, schemaVersion: 0, error: error.message }));
  const embedding = { loaded: services.embedder.isLoaded(), model: services.embedder.modelId, dimensions: services.embedder.dimensions };
  return { ok: neo4j.connected && neo4j.schemaVersion > 0 && embedding.loaded, neo4j, embedding, version: SERVICE_VERSION };
}
