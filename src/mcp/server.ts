import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Principal } from '../auth.js';
import type { Services } from '../app.js';
import { registerGraphTools } from './graph-tools.js';
import { registerMemoryTools } from './memory-tools.js';
import { toolContext } from './tool-context.js';

export const MCP_SERVER_NAME = 'mnemograph';

/** Stated to every client at initialization: the workflow that keeps answers small. */
export const MCP_INSTRUCTIONS = `Mnemograph is your long-term memory: a knowledge graph of memories, entities and facts.
Write: call remember for anything worth keeping (one fact, decision or event per call). For what you already know in structured form, use create_entities, create_relations and add_observations (no LLM, immediate).
Read, cheapest first: recall(query) returns a <memory> block ready for your prompt. To look around before spending tokens, use progressive disclosure: 1) search(query) for a compact index of ids and titles, 2) timeline(anchor=id) for what happened around one of them, 3) get_memories(ids) for the full text of only the ones you need. get_entity(name) shows what is known about one person, organization, place, project or tool; search_entities finds names.
Every read takes max_tokens (default 2000) and never answers beyond it; lists say how many items were omitted. Use forget(id) for what is wrong or must be removed.
Errors come back as tool errors with a code: BAD_USER_INPUT, PII_REJECTED, NOT_FOUND, UNAUTHENTICATED, FORBIDDEN, LIMIT_EXCEEDED, UNAVAILABLE, INTERNAL.`;

/** One MCP server on the service's own services, acting as `principal` (its key's namespace rules apply). */
export function createMcpServer(services: Services, principal: Principal): McpServer {
  const server = new McpServer({ name: MCP_SERVER_NAME, version: process.env.npm_package_version ?? '0.1.0' }, { instructions: MCP_INSTRUCTIONS });
  const ctx = toolContext(services, principal, services.logger.child({ component: 'mcp', principal: principal.name }));
  registerMemoryTools(server, ctx);
  registerGraphTools(server, ctx);
  return server;
}
