import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import express, { type ErrorRequestHandler, type Request, type Router } from 'express';
import type { Services } from '../app.js';
import { BOOKMARK_HEADER, ConsistencyScope, decodeBookmarkToken } from '../consistency/index.js';
import { LimitExceededError, publicError } from '../errors.js';
import { headerValue, principalOf } from '../http/index.js';
import type { Logger } from '../logger.js';
import { requestIdOf } from '../observability/index.js';
import { observeRefusal } from './metrics.js';
import { createMcpServer } from './server.js';

// JSON-RPC's range for server-defined errors, and its parse error.
const JSONRPC_SERVER_ERROR = -32001;
const JSONRPC_PARSE_ERROR = -32700;
/**
 * One JSON-RPC message per POST: the rate and concurrency limits count requests, and a batch
 * (the SDK takes up to 100) would run that many tool calls on one admission.
 */
export const MAX_MESSAGES_PER_REQUEST = 1;

/**
 * Streamable HTTP at /mcp, stateless: every POST is authenticated (by the admission middleware
 * mounted before this router, with the same API keys as /graphql) and gets a server of its own
 * acting as that key, in the bookmark chain its `x-mnemograph-bookmark` header names; the
 * answer carries the chain's bookmark back in that header and in each tool result's `_meta`.
 */
export function mcpRouter(services: Services): Router {
  const router = express.Router();
  router.post('/', express.json({ limit: services.config.MAX_REQUEST_BYTES }), async (req, res, next) => {
    try {
      if (Array.isArray(req.body) && req.body.length > MAX_MESSAGES_PER_REQUEST) {
        throw new LimitExceededError(`a request may carry at most ${MAX_MESSAGES_PER_REQUEST} JSON-RPC message; send one per POST`, {
          messages: req.body.length,
        });
      }
      const principal = principalOf(res) ?? services.access.authenticate(req.headers.authorization, headerValue(req.headers['x-api-key']));
      const scope = new ConsistencyScope(bookmarksOf(req));
      const server = createMcpServer(services, principal, {
        scope,
        requestId: requestIdOf(res),
        // Set before the transport writes its head, which merges headers set earlier.
        onBookmark: (token) => {
          if (!res.headersSent) res.setHeader(BOOKMARK_HEADER, token);
        },
      });
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
      res.on('close', () => {
        void transport.close();
        void server.close();
      });
      await server.connect(transport);
      await transport.handleRequest(req, res, req.body);
    } catch (error) {
      next(error);
    }
  });
  // Stateless: no server-initiated stream (GET) and no session to end (DELETE).
  router.all('/', (_req, res) => {
    res
      .status(405)
      .set('Allow', 'POST')
      .json({ jsonrpc: '2.0', error: { code: -32000, message: 'Method not allowed: this server is stateless, use POST' }, id: null });
  });
  return router;
}

function bookmarksOf(req: Request): string[] {
  const raw = req.headers[BOOKMARK_HEADER];
  const value = Array.isArray(raw) ? raw.join(',') : raw;
  return value === undefined ? [] : decodeBookmarkToken(value.trim());
}

/**
 * Requests /mcp refuses before any tool runs (admission: key, rate, concurrency; body size,
 * JSON, bookmark header, batches), answered as JSON-RPC errors by publicError's rule: the code in
 * `error.data.code`, the HTTP status plain HTTP uses (429 with Retry-After for RATE_LIMITED). One log line each.
 */
export function mcpErrorHandler(logger: Logger, metrics: Services['metrics']): ErrorRequestHandler {
  return (error, _req, res, next) => {
    if (res.headersSent) return next(error);
    const r = publicError(error);
    const requestId = requestIdOf(res);
    if (r.status >= 500) logger.error({ err: error, requestId }, 'unexpected error in the MCP HTTP handler');
    logger.info({ requestId, status: r.status, code: r.code }, 'mcp request refused');
    observeRefusal(metrics, r.code);
    if (r.retryAfterSeconds !== undefined) res.set('Retry-After', String(r.retryAfterSeconds));
    const rpcCode = (error as { type?: unknown } | null)?.type === 'entity.parse.failed' ? JSONRPC_PARSE_ERROR : JSONRPC_SERVER_ERROR;
    res.status(r.status).json({
      jsonrpc: '2.0',
      error: { code: rpcCode, message: r.message, data: { code: r.code, ...(r.details ? { details: r.details } : {}) } },
      id: null,
    });
  };
}
