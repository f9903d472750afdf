import { randomUUID } from 'node:crypto';
import type { Services } from '../app.js';
import type { Principal } from '../auth.js';
import { checkHealth, type HealthReport } from '../health.js';
import type { Logger } from '../logger.js';
import { createLoaders, type Loaders } from './loaders.js';

/** The bounds every transport applies alike, read once from the configuration. */
export interface CallerLimits {
  /** The namespace of a call that names none. */
  defaultNamespace: string;
  /** The largest page or id list one call may ask for (MAX_PAGE_SIZE): more is LIMIT_EXCEEDED, never clamped. */
  maxPageSize: number;
  /** The most items of one batch write (MAX_BATCH_SIZE). */
  maxBatchSize: number;
  /** The longest transcript (MAX_CONTENT_CHARS, like a memory's content). */
  maxTranscriptChars: number;
  /** The largest recall `limit` (the recall settings' budget.maxLimit). */
  maxRecallLimit: number;
}

export function limitsOf(services: Pick<Services, 'config' | 'recall'>): CallerLimits {
  return {
    defaultNamespace: services.config.DEFAULT_NAMESPACE,
    maxPageSize: services.config.MAX_PAGE_SIZE,
    maxBatchSize: services.config.MAX_BATCH_SIZE,
    maxTranscriptChars: services.config.MAX_CONTENT_CHARS,
    maxRecallLimit: services.recall.settingsFor().budget.maxLimit,
  };
}

/**
 * The services an operation calls: the composition root without its plumbing (the executor, the
 * configuration, the logger, the embedder, metrics, the worker's switches). An operation that needs
 * a new query gets it through the service that owns that node kind, never the executor.
 */
export type ApiServices = Pick<
  Services,
  | 'remember'
  | 'update'
  | 'recall'
  | 'disclosure'
  | 'knowledge'
  | 'transfer'
  | 'upkeep'
  | 'sessions'
  | 'sessionUpkeep'
  | 'pipeline'
  | 'workerState'
>;

/**
 * Who is calling, resolved once per request (a GraphQL request, an MCP tool call): the key's
 * principal, its namespace rule, the limits, a logger under the request id, and DataLoaders whose
 * cache lives as long as the request. Every operation in src/api takes one.
 */
export interface Caller {
  readonly services: ApiServices;
  readonly principal: Principal;
  readonly requestId: string;
  readonly logger: Logger;
  readonly limits: CallerLimits;
  readonly loaders: Loaders;
  /** Readiness: Neo4j and its schema, the embedding model (the one look past ApiServices, beside the loaders). */
  checkHealth(): Promise<HealthReport>;
  /** The namespace a call addresses (the default when absent), checked against the caller's key. */
  namespaceFor(requested: string | null | undefined, mode: 'read' | 'write'): string;
}

export function createCaller(services: Services, principal: Principal, options: { requestId?: string; logger?: Logger } = {}): Caller {
  const requestId = options.requestId ?? randomUUID();
  const limits = limitsOf(services);
  return {
    services,
    principal,
    requestId,
    logger: options.logger ?? services.logger.child({ requestId }),
    limits,
    loaders: createLoaders(services.executor, principal),
    checkHealth: () => checkHealth(services),
    namespaceFor(requested, mode) {
      const namespace = requested ?? limits.defaultNamespace;
      if (mode === 'write') principal.assertWrite(namespace);
      else principal.assertRead(namespace);
      return namespace;
    },
  };
}
