import { readFile } from 'node:fs/promises';
import { createServices, type Services } from '../app.js';
import type { Config } from '../config/index.js';
import type { Logger } from '../logger.js';

/**
 * Services for a command-line tool: the Neo4j at NEO4J_URI, else the local one of
 * `npm run neo4j:start` / `npm start` (bolt://127.0.0.1:NEO4J_BOLT_PORT) with the password generated
 * in its home. Not started here: a tool connects to what runs.
 */
export async function cliServices(config: Config, logger: Logger): Promise<Services> {
  const password = config.NEO4J_PASSWORD ?? (config.NEO4J_URI ? undefined : await localNeo4jPassword(config.NEO4J_HOME_DIR));
  return createServices({ ...config, NEO4J_PASSWORD: password }, logger, {
    neo4jUri: config.NEO4J_URI ?? `bolt://127.0.0.1:${config.NEO4J_BOLT_PORT}`,
  });
}

/** The generated password of the local Neo4j's home, when it has one (never made here). */
async function localNeo4jPassword(home: string | undefined): Promise<string | undefined> {
  const { passwordFile } = await import('../../scripts/neo4j-server.mjs');
  try {
    return (await readFile(passwordFile(home), 'utf8')).trim() || undefined;
  } catch {
    return undefined;
  }
}
