import { closeServices, createServices, prepareServices } from './app.js';
import { loadConfig, type Config } from './config/index.js';
import { createLogger, type Logger } from './logger.js';
import { startServer } from './server.js';

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1']);

/**
 * `npm start`: with no NEO4J_URI, the project's own local Neo4j is started first (resolved from
 * Maven Central on the first run), then migrations, the embedding model, the API and the worker.
 */
async function main(): Promise<void> {
  const started = performance.now();
  const config = loadConfig();
  const logger = createLogger(config.LOG_LEVEL);
  const host = bindAddress(config, logger);
  const local = config.NEO4J_URI ? null : await startLocalNeo4j(config, logger);
  const neo4jUri = config.NEO4J_URI ?? local!.uri;

  // The local Neo4j's password is NEO4J_PASSWORD or the one generated in its data folder.
  const services = createServices({ ...config, NEO4J_PASSWORD: config.NEO4J_PASSWORD ?? local?.password }, logger, { neo4jUri });
  let server;
  try {
    await prepareServices(services);
    server = await startServer(services, { host, port: config.PORT });
  } catch (error) {
    await closeServices(services).catch(() => undefined);
    await local?.stop?.();
    throw error;
  }
  services.startWorker();
  logger.info({ url: server.url, startupMs: Math.round(performance.now() - started) }, `Mnemograph ready at ${server.url}`);

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down: draining requests');
    await services.stopWorker();
    await server.close();
    await closeServices(services);
    if (local?.stop) {
      logger.info('stopping the local Neo4j this process started');
      await local.stop();
    }
    logger.info('stopped');
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
}

/** Without API keys nobody is authenticated, so the API must not leave this machine. */
function bindAddress(config: Config, logger: Logger): string {
  if (config.API_KEYS.length > 0 || config.TRUST_NETWORK || LOOPBACK.has(config.HOST)) {
    if (config.API_KEYS.length === 0) logger.warn('no API_KEYS configured: every caller is trusted; listening on loopback only');
    return config.HOST;
  }
  logger.warn({ requested: config.HOST }, 'no API_KEYS configured: refusing to listen beyond loopback; binding 127.0.0.1');
  return '127.0.0.1';
}

/**
 * The local Neo4j, started when NEO4J_URI is not set. One this process started is stopped with
 * it (`stop`); one already running (`npm run neo4j:start`, another `npm start`) is left running.
 */
async function startLocalNeo4j(config: Config, logger: Logger): Promise<{ uri: string; password: string; stop: (() => Promise<void>) | null }> {
  logger.info('NEO4J_URI not set: starting the local Neo4j (npm run neo4j:start)');
  const { startNeo4j, stopNeo4j } = await import('../scripts/neo4j-server.mjs');
  const options = {
    boltPort: config.NEO4J_BOLT_PORT,
    httpPort: config.NEO4J_HTTP_PORT,
    password: config.NEO4J_PASSWORD,
    ...(config.NEO4J_HOME_DIR ? { home: config.NEO4J_HOME_DIR } : {}),
  };
  const neo4j = await startNeo4j(options);
  return { uri: neo4j.boltUrl, password: neo4j.password, stop: neo4j.alreadyRunning ? null : () => stopNeo4j(options) };
}

main().catch((error: Error & { code?: string }) => {
  // One line, bounded: engine messages can span lines or run to kilobytes.
  const reason = String(error.message).replace(/\s+/g, ' ').slice(0, 500);
  process.stderr.write(`mnemograph failed to start: ${error.code ? `[${error.code}] ` : ''}${reason}\n`);
  process.exit(1);
});
