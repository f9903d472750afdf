import { NodeStreamableHTTPServerTransport, toNodeHandler, toWebRequest } from '@modelcontextprotocol/node';
import { type AuthInfo, createMcpHandler, isLegacyRequest } from '@modelcontextprotocol/server';
import express, { type ErrorRequestHandler, type Router } from 'express';
import type { Principal, Services } from '../api/index.js';
import { LimitExceededError, publicError } from '../errors.js';
import type { Logger } from '../logger.js';
import { BOOKMARK_HEADER, bookmarkChainOf, headerValue, principalOf, requestIdOf } from '../request/index.js';
import { observeRefusal } from './metrics.js';
import { createMcpServer } from './server.js';
import type { SessionOptions } from './tool-context.js';

// JSON-RPC's range for server-defined errors, and its parse error.
const JSONRPC_SERVER_ERROR = -32001;
const JSONRPC_PARSE_ERROR = -32700;
/**
 * One JSON-RPC message per POST: the rate and concurrency limits count requests, and a batch
 * (the SDK takes up to 100) would run that many tool calls on one admission.
 */
export const MAX_MESSAGES_PER_REQUEST = 1;

/** What one request's server is built for, handed to the SDK's per-request factory in `authInfo.extra`. */
interface Caller {
  principal: Principal;
  session: SessionOptions;
}
const CALLER = 'mnemograph';

/**
 * Streamable HTTP at /mcp, stateless, both protocol eras at one endpoint: every POST is
 * authenticated (by the admission middleware mounted before this router, with the same API keys
 * as /graphql) and gets a server of its own acting as that key, in the bookmark chain its
 * `x-mnemograph-bookmark` header names; the answer carries the chain's bookmark back in that
 * header and in each tool result's `_meta`.
 *
 * - MCP 2026-07-28 (a request carrying the per-request `_meta` envelope): the SDK's
 *   `createMcpHandler`, modern only.
 * - 2025-era clients (`initialize`, then claim-less requests; the SDK's own predicate decides):
 *   a stateless streamable HTTP transport per request, answering in one JSON body, as before.
 */
export function mcpRouter(services: Services): Router {
  const modern = toNodeHandler(
    createMcpHandler(
      ({ authInfo }) => {
        const caller = authInfo?.extra?.[CALLER] as Caller | undefined;
        // Only this router calls the handler, always with a caller: anything else is a fault.
        if (!caller) throw new Error('MCP request without its caller');
        return createMcpServer(services, caller.principal, caller.session);
      },
      {
        // 2025-era requests never reach it (below); the default response mode answers in one JSON
        // body, written after the tool ran (no tool streams notifications): the bookmark header is set by then.
        legacy: 'reject',
        maxRequestBodySize: services.config.MAX_REQUEST_BYTES,
        onerror: (error) => services.logger.info({ err: error }, 'mcp request refused by the SDK'),
      },
    ),
  );
  const router = express.Router();
  router.post('/', express.json({ limit: services.config.MAX_REQUEST_BYTES }), async (req, res, next) => {
    try {
      if (Array.isArray(req.body) && req.body.length > MAX_MESSAGES_PER_REQUEST) {
        throw new LimitExceededError(`a request may carry at most ${MAX_MESSAGES_PER_REQUEST} JSON-RPC message; send one per POST`, {
          messages: req.body.length,
        });
      }
      const principal = principalOf(res) ?? services.access.authenticate(req.headers.authorization, headerValue(req.headers['x-api-key']));
      const session: SessionOptions = {
        scope: bookmarkChainOf(req),
        requestId: requestIdOf(res),
        // Set before the answer's head is written, which merges headers set earlier.
        onBookmark: (token) => {
          if (!res.headersSent) res.setHeader(BOOKMARK_HEADER, token);
        },
      };
      if (!(await isLegacyRequest(await toWebRequest(req, req.body), req.body))) {
        const authInfo: AuthInfo = { token: '', clientId: principal.name, scopes: [], extra: { [CALLER]: { principal, session } } };
        await modern(Object.assign(req, { auth: authInfo }), res, req.body);
        return;
      }
      const server = createMcpServer(services, principal, session);
      const transport = new NodeStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
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
