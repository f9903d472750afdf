import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import express, { type Request, type Response, type Router } from 'express';
import type { Services } from '../app.js';
import { isMnemographError } from '../errors.js';
import { createMcpServer } from './server.js';

const AUTH_STATUS: Record<string, number> = { UNAUTHENTICATED: 401, FORBIDDEN: 403 };
// JSON-RPC's range for server-defined errors.
const JSONRPC_SERVER_ERROR = -32001;

/**
 * Streamable HTTP at /mcp, stateless: every POST authenticates with the same API keys as
 * /graphql (Authorization: Bearer or X-API-Key) and gets a server of its own acting as that key,
 * so no session state outlives a request and any replica can answer.
 */
export function mcpRouter(services: Services): Router {
  const router = express.Router();
  router.post('/', express.json({ limit: services.config.MAX_REQUEST_BYTES }), async (req: Request, res: Response) => {
    let principal;
    try {
      principal = services.access.authenticate(req.headers.authorization, header(req.headers['x-api-key']));
    } catch (error) {
      const code = isMnemographError(error) ? error.code : 'UNAUTHENTICATED';
      res.status(AUTH_STATUS[code] ?? 401).json({ jsonrpc: '2.0', error: { code: JSONRPC_SERVER_ERROR, message: (error as Error).message, data: { code } }, id: null });
      return;
    }
    const server = createMcpServer(services, principal);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, req.body);
  });
  // Stateless: no server-initiated stream (GET) and no session to end (DELETE).
  router.all('/', (_req, res) => {
    res.status(405).set('Allow', 'POST').json({ jsonrpc: '2.0', error: { code: -32000, message: 'Method not allowed: this server is stateless, use POST' }, id: null });
  });
  return router;
}

function header(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
