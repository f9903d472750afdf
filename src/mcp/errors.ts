import { randomUUID } from 'node:crypto';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { encodeBookmarkToken, withConsistency } from '../consistency/index.js';
import { isMnemographError } from '../errors.js';
import type { Logger } from '../logger.js';
import { clipText, fitJson, type CountTokens } from './budget.js';
import { observeToolCall } from './metrics.js';
import type { ToolContext } from './tool-context.js';

/** Where a tool result carries the bookmark of its session's chain (also the HTTP header). */
export const BOOKMARK_META_KEY = 'mnemograph/bookmark';

/** An answer bounded by `maxTokens`: JSON objects keep their shape (fitJson), other text is clipped. */
export function boundText(text: string, maxTokens: number, count: CountTokens): string {
  if (count(text) <= maxTokens) return text;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return clipText(text, maxTokens, count);
  }
  return parsed && typeof parsed === 'object' && !Array.isArray(parsed)
    ? fitJson(parsed as Record<string, unknown>, maxTokens, count)
    : clipText(text, maxTokens, count);
}

/**
 * A failed call as an MCP tool error (`isError: true`) carrying the same codes as GraphQL's
 * `extensions.code`; anything unexpected is logged and reported without internals.
 */
export function toolError(error: unknown, logger: Logger): { code: string; text: string } {
  if (isMnemographError(error)) {
    const code = error.code === 'CONFIG_INVALID' || error.code === 'MIGRATION_FAILED' ? 'INTERNAL' : error.code;
    if (code === 'INTERNAL') logger.error({ err: error }, 'internal error in an MCP tool');
    const message = code === 'INTERNAL' ? 'internal error' : error.message;
    const details = code !== 'INTERNAL' && error.details ? { details: error.details } : {};
    return { code, text: JSON.stringify({ error: { code, message, ...details } }) };
  }
  logger.error({ err: error }, 'unexpected error in an MCP tool');
  return { code: 'INTERNAL', text: JSON.stringify({ error: { code: 'INTERNAL', message: 'internal error' } }) };
}

/** One item's failure inside a batch-shaped tool's answer. */
export interface ItemError {
  error: { code: string; message: string };
}

/** An item's error as the client sees it: its code and message, internals logged and never answered. */
export function itemError(error: unknown, ctx: ToolContext, tool: string, index: number): { code: string; message: string } {
  if (isMnemographError(error) && error.code !== 'INTERNAL' && error.code !== 'CONFIG_INVALID' && error.code !== 'MIGRATION_FAILED')
    return { code: error.code, message: error.message };
  ctx.logger.error({ err: error, tool, index }, 'unexpected error in an MCP batch item');
  return { code: 'INTERNAL', message: 'internal error' };
}

/**
 * Runs one tool call: inside the session's bookmark chain, its answer (or error) bounded by
 * `maxTokens`, the chain's bookmark returned in `_meta`, and one log line and one metric
 * observation (tool, outcome, code, duration; never arguments or content).
 */
export async function runTool(ctx: ToolContext, tool: string, maxTokens: number, body: () => Promise<string>): Promise<CallToolResult> {
  const started = performance.now();
  const requestId = ctx.requestId ?? randomUUID();
  let text: string;
  let code: string | null = null;
  try {
    text = await withConsistency(ctx.scope, body);
  } catch (error) {
    ({ code, text } = toolError(error, ctx.logger.child({ requestId, tool })));
  }
  const bookmark = await chainBookmark(ctx);
  const durationMs = Math.round((performance.now() - started) * 100) / 100;
  const outcome = code === null ? 'ok' : 'error';
  observeToolCall(ctx.services.metrics, tool, outcome, durationMs / 1000);
  const line = { requestId, tool, outcome, ...(code ? { code } : {}), durationMs };
  if (code === 'INTERNAL') ctx.logger.error(line, 'mcp tool call');
  else ctx.logger.info(line, 'mcp tool call');
  return {
    ...(code === null ? {} : { isError: true }),
    content: [{ type: 'text', text: boundText(text, maxTokens, ctx.count) }],
    ...(bookmark ? { _meta: { [BOOKMARK_META_KEY]: bookmark } } : {}),
  };
}

async function chainBookmark(ctx: ToolContext): Promise<string | null> {
  const bookmarks = await ctx.scope.bookmarks();
  if (bookmarks.length === 0) return null;
  const token = encodeBookmarkToken(bookmarks);
  ctx.onBookmark?.(token);
  return token;
}
