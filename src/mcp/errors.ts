import { publicError } from '../errors.js';
import type { Logger } from '../logger.js';

/**
 * A failed call as an MCP tool error (`isError: true`) carrying publicError's code, message and
 * details, as GraphQL's `extensions`; internals are logged and never answered.
 */
export function toolError(error: unknown, logger: Logger): { code: string; text: string } {
  const { code, message, details, internal } = publicError(error);
  if (internal) logger.error({ err: error }, 'unexpected error in an MCP tool');
  return { code, text: JSON.stringify({ error: { code, message, ...(details ? { details } : {}) } }) };
}
