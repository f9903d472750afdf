export { createMcpServer, MCP_INSTRUCTIONS, MCP_SERVER_NAME } from './server.js';
export { mcpRouter } from './http.js';
export { serveStdio } from './stdio.js';
export { DEFAULT_MAX_TOKENS, MAX_MAX_TOKENS, clipText, fitList } from './budget.js';
