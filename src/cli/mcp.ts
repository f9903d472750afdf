import { readFile } from 'node:fs/promises';
import { closeServices, createServices, prepareServices } from '../app.js';
import { loadConfig } from '../config/index.js';
import { createLogger } from '../logger.js';
import { serveStdio } from '../mcp/index.js';

/**
 * `npm run mcp` (or the `mnemograph-mcp` bin): the MCP server on stdio, for clients that spawn
 * it. It uses the Neo4j at NEO4J_URI, else the local one of `npm run neo4j:start` / `npm start`
 * (bolt://127.0.0.1:NEO4J_BOLT_PORT). Logs go to stderr; stdout carries only the protocol.
 */
async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger(config.LOG_LEVEL, 'mnemograph-mcp', 2);
  // The local Neo4j (no NEO4J_URI) has the password generated in its home, as `npm start` uses.
  const password = config.NEO4J_PASSWORD ?? (config.NEO4J_URI ? undefined : await localNeo4jPassword(config.NEO4J_HOME_DIR));
  const services = createServices({ ...config, NEO4J_PASSWORD: password }, logger, {
    neo4jUri: config.NEO4J_URI ?? `bolt://127.0.0.1:${config.NEO4J_BOLT_PORT}`,
  });
  // Checked before anything loads: a key the service does not accept stops the process at once.
  services.access.authenticate(process.env.MNEMOGRAPH_API_KEY ? `Bearer ${process.env.MNEMOGRAPH_API_KEY}` : undefined);
  await prepareServices(services);
  const session = await serveStdio(services, process.env.MNEMOGRAPH_API_KEY);
  services.startWorker();
  logger.info({ principal: session.principal.name }, 'MCP server ready on stdio');

  let stopping = false;
  const shutdown = async () => {
    if (stopping) return;
    stopping = true;
    await services.stopWorker();
    await session.close();
    await closeServices(services);
    process.exit(0);
  };
  process.stdin.on('end', () => void shutdown());
  process.on('SIGINT', () => void shutdown());
  process.on('SIGTERM', () => void shutdown());
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

main().catch((error: Error & { code?: string }) => {
  process.stderr.write(`mnemograph-mcp failed to start: ${error.code ? `[${error.code}] ` : ''}${error.message}\n`);
  process.exit(1);
});
