import { closeServices, prepareServices } from '../app.js';
import { loadConfig } from '../config/index.js';
import { createLogger } from '../logger.js';
import { cliServices } from './local-neo4j.js';
import { serveStdio } from '../mcp/index.js';

/**
 * `npm run mcp` (or the `mnemograph-mcp` bin): the MCP server on stdio, for clients that spawn
 * it. It uses the Neo4j at NEO4J_URI, else the local one of `npm run neo4j:start` / `npm start`
 * (bolt://127.0.0.1:NEO4J_BOLT_PORT). Logs go to stderr; stdout carries only the protocol.
 */
async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger(config.LOG_LEVEL, 'mnemograph-mcp', 2);
  const services = await cliServices(config, logger);
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

main().catch((error: Error & { code?: string }) => {
  process.stderr.write(`mnemograph-mcp failed to start: ${error.code ? `[${error.code}] ` : ''}${error.message}\n`);
  process.exit(1);
});
