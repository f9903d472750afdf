import type { Principal, Services } from '../api/index.js';
import type { ConsistencyScope } from '../request/index.js';
import type { Logger } from '../logger.js';
import { budgetCounter, type CountTokens } from './budget.js';

/** Per-session options: the bookmark chain calls run in, and how a transport learns its bookmark. */
export interface SessionOptions {
  /** The bookmark chain of the session: one HTTP request's (from its header), or a stdio process's. */
  scope: ConsistencyScope;
  /** The HTTP request's id (x-request-id); without it each call gets one of its own. */
  requestId?: string;
  /** Told the chain's bookmark after each call (the HTTP transport sets its response header). */
  onBookmark?: (token: string) => void;
}

/** What every tool of one MCP session shares; each call gets its own caller (src/api) from it. */
export interface ToolContext extends SessionOptions {
  services: Services;
  principal: Principal;
  logger: Logger;
  /** Tokens of an answer, as the budget counts them (src/mcp/budget.ts). */
  count: CountTokens;
}

export function toolContext(services: Services, principal: Principal, logger: Logger, session: SessionOptions): ToolContext {
  return { ...session, services, principal, logger, count: budgetCounter((text) => services.embedder.countTokens(text)) };
}
