import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import { ApolloServer } from '@apollo/server';
import { ApolloServerPluginDrainHttpServer } from '@apollo/server/plugin/drainHttpServer';
import { ApolloServerPluginLandingPageDisabled } from '@apollo/server/plugin/disabled';
import { expressMiddleware } from '@as-integrations/express5';
import express from 'express';
import { GraphQLError } from 'graphql';
import type { Services } from './app.js';
import { MnemographError } from './errors.js';
import type { GraphQLContext } from './graphql/context.js';
import { depthLimitRule } from './graphql/depth-limit.js';
import { createErrorFormatter } from './graphql/format-error.js';
import { createLoaders } from './graphql/loaders.js';
import { resolvers } from './graphql/resolvers/index.js';
import { typeDefs } from './graphql/schema.js';
import { checkHealth } from './health.js';

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
    formatError: createErrorFormatter(services.logger),
    validationRules: [depthLimitRule(services.config.MAX_QUERY_DEPTH)],
    includeStacktraceInErrorResponses: false,
    plugins: [ApolloServerPluginLandingPageDisabled(), ...(httpServer ? [ApolloServerPluginDrainHttpServer({ httpServer })] : [])],
  });
}

/** Builds the per-request context: caller, namespace policy, fresh DataLoaders. */
export function createContext(services: Services, headers: { authorization?: string; apiKey?: string; requestId?: string }): GraphQLContext {
  const principal = services.access.authenticate(headers.authorization, headers.apiKey);
  const requestId = headers.requestId ?? randomUUID();
  return {
    requestId,
    principal,
    services,
    loaders: createLoaders(services.executor, principal),
    logger: services.logger.child({ requestId }),
    namespaceFor(requested, mode) {
      const namespace = requested ?? services.config.DEFAULT_NAMESPACE;
      if (mode === 'write') principal.assertWrite(namespace);
      else principal.assertRead(namespace);
      return namespace;
    },
  };
}

export async function startServer(services: Services, options: { host: string; port: number }): Promise<RunningServer> {
  const app = express();
  const httpServer = await new Promise<Server>((resolve) => {
    const server = app.listen(options.port, options.host, () => resolve(server));
  });
  const apollo = createApollo(services, httpServer);
  await apollo.start();

  app.get('/health/live', (_req, res) => {
    res.json({ ok: true });
  });
  app.get('/health/ready', async (_req, res) => {
    const report = await checkHealth(services);
    res.status(report.ok ? 200 : 503).json(report);
  });
  app.use(
    '/graphql',
    express.json({ limit: services.config.MAX_REQUEST_BYTES }),
    expressMiddleware(apollo, {
      context: async ({ req }) => {
        try {
          return createContext(services, {
            authorization: req.headers.authorization,
            apiKey: header(req.headers['x-api-key']),
            requestId: header(req.headers['x-request-id']),
          });
        } catch (error) {
          throw toGraphQLError(error);
        }
      },
    }),
  );

  const address = httpServer.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  return {
    url: `http://${options.host}:${port}/graphql`,
    apollo,
    close: () => apollo.stop(),
  };
}

function header(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

// Errors thrown while building the context bypass formatError, so they carry their code here.
function toGraphQLError(error: unknown): unknown {
  if (error instanceof MnemographError) {
    return new GraphQLError(error.message, { extensions: { code: error.code, http: { status: error.code === 'UNAUTHENTICATED' ? 401 : 403 } } });
  }
  return error;
}
