import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { Principal } from '../auth.js';
import type { Services } from '../app.js';
import { ConsistencyScope } from '../consistency/index.js';
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
  const server = createMcpServer(services, principal, { scope: new ConsistencyScope() });
  await server.connect(new StdioServerTransport());
  return { principal, close: () => server.close() };
}
