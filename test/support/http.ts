import { pino } from 'pino';
import { createServices, type AppOptions, type Services } from '../../src/app.js';
import { loadConfig } from '../../src/config/index.js';
import { startServer, type RunningServer } from '../../src/server.js';
import { testEmbedder } from './services.js';
import { TEST_NEO4J, TEST_NEO4J_URI } from './test-neo4j.js';

export interface HttpResult<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

export interface TestHttpServer {
  services: Services;
  server: RunningServer;
  /** http://127.0.0.1:<port> */
  origin: string;
  /** Every JSON log line the service wrote at info level and above. */
  logLines: Record<string, unknown>[];
  /** POSTs a GraphQL operation as JSON and returns status, headers and the parsed body. */
  post<T = any>(body: Record<string, unknown> | string, headers?: Record<string, string>): Promise<HttpResult<T>>;
  close(): Promise<void>;
}

/**
 * The real HTTP server on a free port against the test Neo4j, with config overrides as
 * environment variables and its log lines captured.
 */
export async function startTestHttpServer(env: Record<string, string> = {}, options: Partial<AppOptions> = {}): Promise<TestHttpServer> {
  const config = loadConfig({ NEO4J_PASSWORD: process.env.TEST_NEO4J_PASSWORD ?? TEST_NEO4J.password, WORKER_ENABLED: 'false', ...env });
  const logLines: Record<string, unknown>[] = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => void logLines.push(JSON.parse(line)) });
  const services = createServices(config, logger, {
    neo4jUri: process.env.TEST_NEO4J_URI ?? TEST_NEO4J_URI,
    embedder: testEmbedder(),
    ...options,
  });
  await services.embedder.load();
  const server = await startServer(services, { host: '127.0.0.1', port: 0 });
  const origin = new URL(server.url).origin;
  return {
    services,
    server,
    origin,
    logLines,
    async post(body, headers = {}) {
      const response = await fetch(server.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: typeof body === 'string' ? body : JSON.stringify(body),
      });
      const text = await response.text();
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        throw new Error(`expected a JSON body from POST /graphql (HTTP ${response.status}), got: ${text.slice(0, 200)}`);
      }
      return { status: response.status, headers: response.headers, body: parsed as any };
    },
    async close() {
      await server.close();
      await services.executor.close();
    },
  };
}
