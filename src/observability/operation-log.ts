import type { ApolloServerPlugin, BaseContext } from '@apollo/server';
import { Kind, type DocumentNode } from 'graphql';
import type { Request, RequestHandler, Response } from 'express';
import type { Logger } from '../logger.js';
import type { Metrics } from './metrics.js';
import { requestIdOf } from './request-id.js';

/** What one HTTP GraphQL request did, filled in by whichever layer learns it. */
export interface OperationTrace {
  operationName: string | null;
  operationType: string | null;
  errorCodes: string[];
}

// The plugin only sees the GraphQL context, which Apollo copies per operation (own enumerable
// properties, symbols included): a symbol-keyed property leads from any copy to the trace.
const TRACE = Symbol('mnemograph.operationTrace');

function traceInContext(context: object): OperationTrace | undefined {
  return (context as { [TRACE]?: OperationTrace })[TRACE];
}

/** The trace of the request `res` answers (started by `recordOperations`). */
export function traceOf(res: Response): OperationTrace | undefined {
  return res.locals.operationTrace as OperationTrace | undefined;
}

/** Lets the plugin find the request's trace from the GraphQL context built for it. */
export function bindTrace(context: object, trace: OperationTrace | undefined): void {
  if (trace) Object.defineProperty(context, TRACE, { value: trace, enumerable: true });
}

/** Copies the resolved operation and the error codes of the response into the trace. */
export function operationTracePlugin<TContext extends BaseContext>(): ApolloServerPlugin<TContext> {
  return {
    async requestDidStart() {
      return {
        async willSendResponse({ contextValue, operationName, operation, document, request, response }) {
          const trace = traceInContext(contextValue);
          if (!trace) return;
          trace.operationName = operationName ?? request.operationName ?? soleOperationName(document);
          trace.operationType = operation?.operation ?? null;
          const errors = response.body.kind === 'single' ? response.body.singleResult.errors : undefined;
          trace.errorCodes = errorCodes(errors ?? []);
        },
      };
    },
  };
}

/**
 * One log line and one latency observation per GraphQL request, when its response is done:
 * operation name and type, duration, status and error codes. Never variables or the query text.
 */
export function recordOperations(logger: Logger, metrics: Metrics): RequestHandler {
  return (req, res, next) => {
    const started = performance.now();
    const trace: OperationTrace = { operationName: null, operationType: null, errorCodes: [] };
    res.locals.operationTrace = trace;
    res.on('close', () => {
      const durationMs = Math.round((performance.now() - started) * 100) / 100;
      const status = res.statusCode;
      const aborted = !res.writableFinished;
      const codes = trace.errorCodes.length > 0 || status < 400 ? trace.errorCodes : [`HTTP_${status}`];
      const outcome = codes.length === 0 && !aborted ? 'ok' : 'error';
      const operationName = trace.operationName ?? requestedOperationName(req);
      metrics.observeOperation(operationName, outcome, durationMs / 1000);
      const line = {
        requestId: requestIdOf(res),
        operationName,
        operationType: trace.operationType,
        durationMs,
        status,
        outcome,
        ...(codes.length > 0 ? { errorCodes: codes } : {}),
        ...(aborted ? { aborted: true } : {}),
      };
      if (status >= 500) logger.error(line, 'graphql operation');
      else logger.info(line, 'graphql operation');
    });
    next();
  };
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

/** The name the caller gave, for requests that failed before Apollo resolved one. */
function requestedOperationName(req: Request): string | null {
  const body: unknown = req.body;
  const fromBody = body && typeof body === 'object' && 'operationName' in body ? body.operationName : undefined;
  const name = fromBody ?? req.query.operationName;
  return typeof name === 'string' && name.length > 0 ? name.slice(0, 64) : null;
}
