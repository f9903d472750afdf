import type { Principal } from '../auth.js';
import type { Services } from '../app.js';
import type { Logger } from '../logger.js';
import type { CountTokens } from './budget.js';

/** What every tool of one MCP session needs: the services, the caller, and its namespace rule. */
export interface ToolContext {
  services: Services;
  principal: Principal;
  logger: Logger;
  count: CountTokens;
  /** The namespace a call addresses (DEFAULT_NAMESPACE when absent), checked against the caller's key. */
  namespaceFor(requested: string | undefined, mode: 'read' | 'write'): string;
}

export function toolContext(services: Services, principal: Principal, logger: Logger): ToolContext {
  return {
    services,
    principal,
    logger,
    count: (text) => services.embedder.countTokens(text),
    namespaceFor(requested, mode) {
      const namespace = requested ?? services.config.DEFAULT_NAMESPACE;
      if (mode === 'write') principal.assertWrite(namespace);
      else principal.assertRead(namespace);
      return namespace;
    },
  };
}
