import type { ApolloServerPlugin, GraphQLRequestContextWillSendResponse } from '@apollo/server';
import { Kind, type DocumentNode } from 'graphql';
import type { Logger } from '../../logger.js';
import type { Services } from '../../api/index.js';
import type { GraphQLContext } from '../context.js';

/** What one GraphQL request did: never its variables or query text. */
interface OperationSummary {
  requestId: string | undefined;
  operationName: string | null;
  operationType: string | null;
  durationMs: number;
  status: number;
  outcome: 'ok' | 'error';
  errorCodes: string[];
}

/** The name of a document's only operation: what a request refused by validation meant to run. */
function soleOperationName(document: DocumentNode | undefined): string | null {
  const operations = document?.definitions.filter((d) => d.kind === Kind.OPERATION_DEFINITION) ?? [];
  return operations.length === 1 ? (operations[0]!.name?.value ?? null) : null;
}

function errorCodes(errors: ReadonlyArray<{ extensions?: Record<string, unknown> }>): string[] {
  const codes = errors.map((e) => (typeof e.extensions?.code === 'string' ? e.extensions.code : 'UNKNOWN'));
  return [...new Set(codes)];
}

function summarize(started: number, rc: GraphQLRequestContextWillSendResponse<GraphQLContext>): OperationSummary {
  const status = rc.response.http.status ?? 200;
  const errors = rc.response.body.kind === 'single' ? rc.response.body.singleResult.errors : undefined;
  const codes = errorCodes(errors ?? []);
  if (codes.length === 0 && status >= 400) codes.push(`HTTP_${status}`);
  return {
    requestId: rc.contextValue?.caller?.requestId,
    operationName: rc.operationName ?? rc.request.operationName ?? soleOperationName(rc.document),
    operationType: rc.operation?.operation ?? null,
    durationMs: Math.round((performance.now() - started) * 100) / 100,
    status,
    outcome: codes.length === 0 ? 'ok' : 'error',
    errorCodes: codes,
  };
}

/** A plugin that hands every request's summary, when its response is ready, to `report`. */
function onEveryOperation(report: (summary: OperationSummary) => void): ApolloServerPlugin<GraphQLContext> {
  return {
    async requestDidStart() {
      const started = performance.now();
      return {
        async willSendResponse(rc) {
          report(summarize(started, rc));
        },
      };
    },
  };
}

/** One log line per GraphQL request: operation name and type, duration, status and error codes. */
export function requestLogPlugin(logger: Logger): ApolloServerPlugin<GraphQLContext> {
  return onEveryOperation(({ errorCodes, ...line }) => {
    const entry = { ...line, ...(errorCodes.length > 0 ? { errorCodes } : {}) };
    if (line.status >= 500) logger.error(entry, 'graphql operation');
    else logger.info(entry, 'graphql operation');
  });
}

/** One latency observation per GraphQL request, by operation name and outcome (GET /metrics). */
export function operationMetricsPlugin(metrics: Services['metrics']): ApolloServerPlugin<GraphQLContext> {
  return onEveryOperation(({ operationName, outcome, durationMs }) => metrics.observeOperation(operationName, outcome, durationMs / 1000));
}
