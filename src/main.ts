import { loadConfig, type Config } from './config/index.js';
import { closeServices, createServices, prepareServices, type Services } from './app.js';
import { createLogger, type Logger } from './logger.js';
import { startServer, type RunningServer } from './server.js';

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1']);

/** A JVM start on a loaded laptop can pass the launcher's 120 s default; one not up in 5 min is stuck. */
const LOCAL_NEO4J_START_TIMEOUT_MS = 300_000;
/** Closing the services may wait on in-flight work; the local Neo4j is stopped after this at the latest. */
const CLOSE_TIMEOUT_MS = 15_000;

interface LocalNeo4j {
  uri: string;
  password: string;
  stop: (() => Promise<void>) | null;
}

/**
 * What this process has started so far, and its one way of stopping: SIGINT/SIGTERM are handled
 * from the first moment, so `npm start` stopped at any point (during Neo4j's start, migrations,
 * the model load, or once ready) stops the local Neo4j it started, and leaves alone one it
 * found running.
 */
class Lifecycle {
  neo4j: Promise<LocalNeo4j> | null = null;
  services: Services | null = null;
  server: RunningServer | null = null;
  private stopping: Promise<void> | null = null;

  constructor(private readonly logger: Logger) {}

  get isStopping(): boolean {
    return this.stopping !== null;
  }

  install(): void {
    // SIGHUP too: a closed terminal or a supervisor's reload must not orphan the local Neo4j.
    for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => this.stop(signal));
  }

  private stop(signal: string): void {
    if (this.stopping) {
      this.logger.warn({ signal }, 'already stopping (the local Neo4j this process started is stopped before it exits)');
      return;
    }
    this.stopping = this.shutdown(signal).then(
      () => process.exit(0),
      (error: Error) => {
        process.stderr.write(`mnemograph failed to stop cleanly: ${String(error.message).replace(/\s+/g, ' ').slice(0, 500)}\n`);
        process.exit(1);
      },
    );
  }

  private async shutdown(signal: string): Promise<void> {
    const ready = this.server !== null;
    this.logger.info({ signal }, ready ? 'shutting down: draining requests' : 'stopping during start-up');
    const { services, server } = this;
    const close = async () => {
      if (services) await services.stopWorker();
      if (server) await server.close();
      if (services) await closeServices(services);
    };
    await withTimeout(close(), CLOSE_TIMEOUT_MS).catch((error: Error) =>
      this.logger.warn({ err: error }, 'closing the services failed; stopping anyway'),
    );
    // A Neo4j still starting is waited for: only then is it known whether this process started it.
    const local = this.neo4j ? await this.neo4j.catch(() => null) : null;
    if (local?.stop) {
      this.logger.info('stopping the local Neo4j this process started');
      await local.stop();
    }
    this.logger.info('stopped');
  }
}

/**
 * `npm start`: with no NEO4J_URI, the project's own local Neo4j is started first (resolved from
 * Maven Central on the first run), then migrations, the embedding model, the API and the worker.
 */
async function main(life: Lifecycle, logger: Logger, config: Config): Promise<void> {
  const started = performance.now();
  const host = bindAddress(config, logger);
  if (!config.NEO4J_URI) life.neo4j = startLocalNeo4j(config, logger);
  const local = life.neo4j ? await life.neo4j : null;
  if (life.isStopping) return;
  const neo4jUri = config.NEO4J_URI ?? local!.uri;

  let services: Services | undefined;
  try {
    // The local Neo4j's password is NEO4J_PASSWORD or the one generated in its data folder.
    services = createServices({ ...config, NEO4J_PASSWORD: config.NEO4J_PASSWORD ?? local?.password }, logger, { neo4jUri });
    life.services = services;
    await prepareServices(services);
    if (life.isStopping) return;
    life.server = await startServer(services, { host, port: config.PORT });
  } catch (error) {
    // Stopping closes what was started; a step failing because of it is no start-up failure.
    if (life.isStopping) return;
    if (services) await closeServices(services).catch(() => undefined);
    await local?.stop?.();
    throw error;
  }
  if (life.isStopping) return;
  services.startWorker();
  logger.info({ url: life.server.url, startupMs: Math.round(performance.now() - started) }, `Mnemograph ready at ${life.server.url}`);
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
async function startLocalNeo4j(config: Config, logger: Logger): Promise<LocalNeo4j> {
  logger.info('NEO4J_URI not set: starting the local Neo4j (npm run neo4j:start)');
  const { startNeo4j, stopNeo4j } = await import('../scripts/neo4j-server.mjs');
  const options = {
    boltPort: config.NEO4J_BOLT_PORT,
    httpPort: config.NEO4J_HTTP_PORT,
    password: config.NEO4J_PASSWORD,
    ...(config.NEO4J_HOME_DIR ? { home: config.NEO4J_HOME_DIR } : {}),
  };
  const neo4j = await startNeo4j({ ...options, timeoutMs: LOCAL_NEO4J_START_TIMEOUT_MS });
  return { uri: neo4j.boltUrl, password: neo4j.password, stop: neo4j.alreadyRunning ? null : () => stopNeo4j(options) };
}

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`not done within ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

function failed(error: Error & { code?: string }): never {
  // One line, bounded: engine messages can span lines or run to kilobytes.
  const reason = String(error.message).replace(/\s+/g, ' ').slice(0, 500);
  process.stderr.write(`mnemograph failed to start: ${error.code ? `[${error.code}] ` : ''}${reason}\n`);
  process.exit(1);
}

let life: Lifecycle | undefined;
try {
  const config = loadConfig();
  const logger = createLogger(config.LOG_LEVEL);
  // Before anything starts, so no signal finds a Neo4j this process started without a way to stop it.
  life = new Lifecycle(logger);
  life.install();
  await main(life, logger, config);
} catch (error) {
  // While stopping, failures of interrupted steps are expected; the shutdown decides the exit.
  if (!life?.isStopping) failed(error as Error);
}
