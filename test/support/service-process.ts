/**
 * The service in a process of its own, for tests and benchmarks that need a real process
 * boundary (a SIGKILLed worker, the event loop of the service alone under load):
 *
 *   node --import tsx test/support/service-process.ts
 *
 * Configuration is the service's own environment (NEO4J_URI, NEO4J_PASSWORD, OLLAMA_HOST,
 * WORKER_*, …) plus:
 * - SERVICE_PROCESS_HTTP: `false` skips the HTTP server (default: serve on HOST:PORT; PORT 0 = any free port);
 * - SERVICE_PROCESS_WORKER_NAMESPACES: comma-separated; runs the deep-path worker confined to
 *   these namespaces (a shared test database holds other tests' jobs).
 * Over IPC it sends `{type: 'ready', url, workerId, pid}` once serving, and answers
 * `{type: 'eld', reset?}` with the event-loop delay since the last reset. The parent's side is
 * `forkService` in test/support/processes.ts.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { closeServices, createServices, prepareServices } from '../../src/app.js';
import { loadConfig } from '../../src/config/index.js';
import { createLogger } from '../../src/logger.js';
import { startServer } from '../../src/server.js';
import { createWorker } from '../../src/worker/index.js';

/** The sampling interval of the delay histogram; it is subtracted from what is reported. */
const ELD_RESOLUTION_MS = 10;

export interface EventLoopDelay {
  /** Milliseconds each timer fired late (beyond the sampling interval). */
  p50: number;
  p99: number;
  max: number;
  mean: number;
  samples: number;
}

export type ServiceMessage =
  | { type: 'ready'; url: string | null; workerId: string | null; pid: number }
  | ({ type: 'eld' } & EventLoopDelay);

async function main(): Promise<void> {
  const config = loadConfig();
  if (!config.NEO4J_URI) throw new Error('service-process needs NEO4J_URI');
  const logger = createLogger(config.LOG_LEVEL);
  const services = createServices(config, logger, { neo4jUri: config.NEO4J_URI });
  await prepareServices(services);

  const namespaces = (process.env.SERVICE_PROCESS_WORKER_NAMESPACES ?? '').split(',').filter(Boolean);
  const worker =
    namespaces.length > 0
      ? createWorker({
          executor: services.executor,
          embedder: services.embedder,
          remember: services.remember,
          config,
          logger: logger.child({ component: 'worker' }),
          namespaces,
        })
      : null;
  const server =
    process.env.SERVICE_PROCESS_HTTP === 'false' ? null : await startServer(services, { host: config.HOST, port: config.PORT });
  worker?.start();

  const histogram = monitorEventLoopDelay({ resolution: ELD_RESOLUTION_MS });
  histogram.enable();
  const late = (ns: number) => Math.max(0, Math.round((ns / 1e6 - ELD_RESOLUTION_MS) * 100) / 100);
  process.on('message', (message: { type?: string; reset?: boolean }) => {
    if (message?.type !== 'eld') return;
    const reply: ServiceMessage = {
      type: 'eld',
      p50: late(histogram.percentile(50)),
      p99: late(histogram.percentile(99)),
      max: late(histogram.max),
      mean: late(histogram.mean),
      samples: histogram.count,
    };
    if (message.reset) histogram.reset();
    process.send?.(reply);
  });

  const ready: ServiceMessage = { type: 'ready', url: server?.url ?? null, workerId: worker?.state().workerId ?? null, pid: process.pid };
  process.send?.(ready);
  process.stderr.write(`service-process ready ${JSON.stringify(ready)}\n`);

  const shutdown = async () => {
    histogram.disable();
    await worker?.stop();
    await server?.close();
    await closeServices(services);
    process.exit(0);
  };
  process.once('SIGTERM', () => void shutdown());
  process.once('SIGINT', () => void shutdown());
  // The parent went away: do not linger as an orphan holding a port and a driver.
  process.once('disconnect', () => void shutdown());
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  main().catch((error: Error) => {
    process.stderr.write(`service-process failed: ${error.stack ?? error.message}\n`);
    process.exit(1);
  });
}
