import type { Principal } from '../auth.js';
import type { Services } from '../app.js';
import type { Logger } from '../logger.js';
import type { Loaders } from './loaders.js';

export interface GraphQLContext {
  requestId: string;
  principal: Principal;
  services: Services;
  loaders: Loaders;
  logger: Logger;
  /** The namespace a call addresses (the default when absent), checked against the caller's key. */
  namespaceFor(requested: string | null | undefined, mode: 'read' | 'write'): string;
}
