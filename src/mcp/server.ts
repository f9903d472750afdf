import { McpServer } from '@modelcontextprotocol/server';
import { limitsOf, type Principal, type Services } from '../api/index.js';
import { DEFAULT_MAX_TOKENS } from './budget.js';
import { toolContext, type SessionOptions } from './tool-context.js';
import { TOOLS } from './tools/index.js';

export const MCP_SERVER_NAME = 'mnemograph';

/** Stated to every client at initialization: the workflow that keeps answers small. */
export const MCP_INSTRUCTIONS = `Mnemograph is your long-term memory: a knowledge graph of memories, entities and facts.

Write: call remember for anything worth keeping (one fact, decision or event per call), or remember_batch for many at once (one outcome per item). For what you already know in structured form, use create_entities, create_relations and add_observations (no LLM, immediate).

Read, cheapest first:
- recall(query) returns a <memory> block ready for your prompt, then the ids and scores of the memories in it.
- To look around before spending tokens, use progressive disclosure, always in this order:
  1. search(query): a compact index of matching memories (id, title, date, score, token estimate), no full text.
  2. timeline(anchor=<an id from step 1>): the memories just before and after it, for context.
  3. get_memories(ids=[...]): the full text of only the few memories you chose in steps 1-2.
  Do not call get_memories for every search hit.
- get_entity(name) shows what is known about one person, organization, place, project or tool (its facts and relations); search_entities(query) finds entity names.
Use forget(id) for a memory that is wrong or must be removed.

Sessions: session_start gives the context to inject at the start; report each user prompt with session_prompt (it also recalls for it) and tool results with session_tool_result — checkpoints are written every 10 prompts or 15 minutes; after a crash or compaction, session_recover; at the end, session_end.

Every tool takes max_tokens (default ${DEFAULT_MAX_TOKENS}) and never answers beyond it: a cut list says how many items it left out ("omitted" or "<list>_omitted"), clipped text ends with "…", and "truncated": true marks an answer shrunk to fit. Raise max_tokens or narrow the query to see more.

Errors come back as tool errors (isError) whose text is {"error":{"code":...,"message":...}}. Codes: BAD_USER_INPUT and PII_REJECTED (fix the input), NOT_FOUND, UNAUTHENTICATED and FORBIDDEN (your key does not allow it), LIMIT_EXCEEDED (ask for less), CONFLICT (the record changed meanwhile: read it again, then retry), RATE_LIMITED (too many requests for your key: wait, then retry; over HTTP this is an HTTP 429), TIMEOUT (a query ran too long: retry or narrow it), UNAVAILABLE (the database is unreachable: retry later), INTERNAL (a server fault, not your input).`;

/**
 * One MCP server on the service's own services, acting as `principal` (its key's namespace
 * rules apply), its calls in the session's bookmark chain.
 */
export function createMcpServer(services: Services, principal: Principal, session: SessionOptions): McpServer {
  const server = new McpServer(
    { name: MCP_SERVER_NAME, version: process.env.npm_package_version ?? '0.1.0' },
    { instructions: MCP_INSTRUCTIONS },
  );
  const ctx = toolContext(services, principal, services.logger.child({ component: 'mcp', principal: principal.name }), session);
  const limits = limitsOf(services);
  for (const tool of TOOLS) tool.register(server, ctx, limits);
  return server;
}
