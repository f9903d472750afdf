import type { Server } from 'node:http';
import { ApolloServer } from '@apollo/server';
import { ApolloServerPluginDrainHttpServer } from '@apollo/server/plugin/drainHttpServer';
import { ApolloServerPluginLandingPageDisabled } from '@apollo/server/plugin/disabled';
import { expressMiddleware } from '@as-integrations/express5';
import express from 'express';
import { GraphQLError } from 'graphql';
import type { Services } from './app.js';
import type { Principal } from './auth.js';
import { createCaller } from './api/index.js';
import { isMnemographError, publicError } from './errors.js';
import type { GraphQLContext } from './graphql/index.js';
import { costLimitPlugin } from './graphql/index.js';
import { createErrorFormatter, logInternalErrors, operationMetricsPlugin, requestLogPlugin } from './graphql/index.js';
import { queryLimitRules, tokenLimit } from './graphql/index.js';
import { graphiqlRouter } from './graphql/index.js';
import { resolvers } from './graphql/index.js';
import { typeDefs } from './graphql/index.js';
import { checkHealth } from './health.js';
import { mcpErrorHandler, mcpRouter } from './mcp/index.js';
import { httpErrorHandler } from './http-errors.js';
import { admission, explorerRouter, hostCheck } from './http/index.js';
import { bookmarkPlugin, bookmarkScopeMiddleware, headerValue, principalOf, requestIdMiddleware, requestIdOf } from './request/index.js';

export interface RunningServer {
  url: string;
  apollo: ApolloServer<GraphQLContext>;
  /** Stops accepting requests, drains the ones in flight. */
  close(): Promise<void>;
}

export function createApollo(services: Services, httpServer?: Server): ApolloServer<GraphQLContext> {
  return new ApolloServer<GraphQLContext>({
    typeDefs,
    resolvers,
    formatError: createErrorFormatter(),
    // Limits are checked before execution: tokens before parsing (startServer), depth, aliases
    // and directives while validating (GraphQL Armor), cost once the operation is known.
    validationRules: queryLimitRules({
      maxDepth: services.config.MAX_QUERY_DEPTH,
      maxAliases: services.config.MAX_QUERY_ALIASES,
      maxDirectives: services.config.MAX_QUERY_DIRECTIVES,
    }),
    // The IDE (src/graphql/ide.ts) needs it; the schema is no secret, and API keys still apply.
    introspection: true,
    includeStacktraceInErrorResponses: false,
    // main.ts owns SIGINT/SIGTERM (worker, then requests, then Neo4j); Apollo's own handlers raced it.
    stopOnTerminationSignals: false,
    plugins: [
      // Apollo's landing page loads from a CDN; the locally hosted GraphiQL replaces it.
      ApolloServerPluginLandingPageDisabled(),
      costLimitPlugin(services.config.MAX_QUERY_COST),
      logInternalErrors(services.logger),
      requestLogPlugin(services.logger),
      operationMetricsPlugin(services.metrics),
      bookmarkPlugin(),
      ...(httpServer ? [ApolloServerPluginDrainHttpServer({ httpServer })] : []),
    ],
  });
}

/**
 * Builds the per-request context: the caller (authenticated here unless the HTTP admission already
 * did), resolved once for the whole request (src/api).
 */
export function createContext(
  services: Services,
  headers: { authorization?: string; apiKey?: string; requestId?: string; principal?: Principal },
): GraphQLContext {
  const principal = headers.principal ?? services.access.authenticate(headers.authorization, headers.apiKey);
  return { caller: createCaller(services, principal, { requestId: headers.requestId }) };
}

export async function startServer(services: Services, options: { host: string; port: number }): Promise<RunningServer> {
  const app = express();
  app.disable('x-powered-by');
  // Express 5 hands a listen error (EADDRINUSE) to the callback; without this start-up would hang.
  const httpServer = await new Promise<Server>((resolve, reject) => {
    const server = app.listen(options.port, options.host, (error?: Error) => (error ? reject(error) : resolve(server)));
  });
  const apollo = createApollo(services, httpServer);
  await apollo.start();

  app.use(requestIdMiddleware());
  if (services.access.open) app.use(hostCheck(services.config.ALLOWED_HOSTS));
  app.use(graphiqlRouter({ headersTemplate: !services.access.open }));
  app.use(explorerRouter());
  app.get('/health/live', (_req, res) => {
    res.json({ ok: true });
  });
  app.get('/health/ready', async (_req, res) => {
    const report = await checkHealth(services);
    res.status(report.ok ? 200 : 503).json(report);
  });
  // Prometheus scrapes without a key, like /health: it shows counts and timings, never content.
  app.get('/metrics', async (_req, res) => {
    const body = await services.metrics.registry.metrics();
    res.type(services.metrics.registry.contentType).send(body);
  });
  // One admission for both transports: a key's rate and concurrency are the same whether it
  // calls /graphql or /mcp (separate limiters gave it each limit twice over).
  const admit = admission(services.access, {
    ratePerMinute: services.config.RATE_LIMIT_PER_MINUTE,
    maxConcurrent: services.config.MAX_CONCURRENT_REQUESTS_PER_KEY,
  });
  app.use(
    '/graphql',
    admit,
    express.json({ limit: services.config.MAX_REQUEST_BYTES }),
    tokenLimit(services.config.MAX_QUERY_TOKENS),
    bookmarkScopeMiddleware(),
    expressMiddleware(apollo, {
      context: async ({ req, res }) => {
        try {
          return createContext(services, {
            authorization: req.headers.authorization,
            apiKey: headerValue(req.headers['x-api-key']),
            requestId: requestIdOf(res),
            principal: principalOf(res),
          });
        } catch (error) {
          throw toGraphQLError(error);
        }
      },
    }),
  );
  // /mcp: the same admission as /graphql (one rate and concurrency budget per key), the body
  // limit in the router, refusals as JSON-RPC errors; one log line per tool call (src/mcp).
  app.use('/mcp', admit, mcpRouter(services), mcpErrorHandler(services.logger, services.metrics));
  app.use(httpErrorHandler(services.logger, services.metrics));

  const address = httpServer.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  return {
    url: `http://${options.host}:${port}/graphql`,
    apollo,
    close: () => apollo.stop(),
  };
}

// Errors thrown while building the context never reach a resolver: their code and HTTP status are set here.
function toGraphQLError(error: unknown): unknown {
  if (!isMnemographError(error)) return error;
  const p = publicError(error);
  return new GraphQLError(p.message, {
    extensions: { code: p.code, ...(p.details ? { details: p.details } : {}), http: { status: p.status } },
  });
}
