import { serveStdio as serveMcpStdio } from '@modelcontextprotocol/server/stdio';
import type { Principal, Services } from '../api/index.js';
import { ConsistencyScope } from '../request/index.js';
import { createMcpServer } from './server.js';

/**
 * The MCP server on stdin/stdout for clients that spawn it. With API_KEYS configured, the key in
 * MNEMOGRAPH_API_KEY decides what it may reach, exactly as over HTTP. The process is one session:
 * all its calls share one bookmark chain, so each reads what the ones before it wrote.
 */
export async function serveStdio(
  services: Services,
  apiKey: string | undefined,
): Promise<{ principal: Principal; close(): Promise<void> }> {
  const principal = services.access.authenticate(apiKey ? `Bearer ${apiKey}` : undefined);
  const scope = new ConsistencyScope();
  // The SDK's stdio entry serves MCP 2026-07-28 and 2025-era clients (the opening decides); it
  // builds the connection's server from this factory (and one more for a discarded era probe).
  const handle = serveMcpStdio(() => createMcpServer(services, principal, { scope }), {
    onerror: (error) => services.logger.warn({ err: error }, 'MCP stdio error'),
  });
  return { principal, close: () => handle.close() };
}
