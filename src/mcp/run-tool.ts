import { randomUUID } from 'node:crypto';
import type { CallToolResult } from '@modelcontextprotocol/server';
import { createCaller, type Caller } from '../api/index.js';
import { bookmarkTokenOf, withConsistency } from '../request/index.js';
import { clipText, fitJson, type CountTokens } from './budget.js';
import { toolError } from './errors.js';
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
 * Runs one tool call as its caller: inside the session's bookmark chain, its answer (or error) bounded by
 * `maxTokens`, the chain's bookmark returned in `_meta`, and one log line and one metric
 * observation (tool, outcome, code, duration; never arguments or content).
 */
export async function runTool(
  ctx: ToolContext,
  tool: string,
  maxTokens: number,
  body: (caller: Caller) => Promise<string>,
): Promise<CallToolResult> {
  const started = performance.now();
  const requestId = ctx.requestId ?? randomUUID();
  const logger = ctx.logger.child({ requestId, tool });
  let text: string;
  let code: string | null = null;
  try {
    // The caller is resolved once per call: a stdio session's calls share no cache.
    const caller = createCaller(ctx.services, ctx.principal, { requestId, logger });
    text = await withConsistency(ctx.scope, () => body(caller));
  } catch (error) {
    ({ code, text } = toolError(error, logger));
  }
  const bookmark = await bookmarkTokenOf(ctx.scope);
  if (bookmark) ctx.onBookmark?.(bookmark);
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
