import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { isMnemographError } from '../errors.js';
import type { Logger } from '../logger.js';

/** A successful tool answer: one text block (JSON or the `<memory>` block). */
export function toolText(text: string): CallToolResult {
  return { content: [{ type: 'text', text }] };
}

/**
 * A failed call as an MCP tool error (`isError: true`) carrying the same codes as GraphQL's
 * `extensions.code`; anything unexpected is logged and reported without internals.
 */
export function toolError(error: unknown, logger: Logger): CallToolResult {
  if (isMnemographError(error)) {
    return { isError: true, content: [{ type: 'text', text: JSON.stringify({ error: { code: error.code, message: error.message, ...(error.details ? { details: error.details } : {}) } }) }] };
  }
  logger.error({ err: error }, 'unexpected error in an MCP tool');
  return { isError: true, content: [{ type: 'text', text: JSON.stringify({ error: { code: 'INTERNAL', message: 'internal error' } }) }] };
}

/** Runs a tool body, turning a thrown error into a tool error. */
export async function guarded(logger: Logger, body: () => Promise<CallToolResult>): Promise<CallToolResult> {
  try {
    return await body();
  } catch (error) {
    return toolError(error, logger);
  }
}
