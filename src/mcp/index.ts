export { createMcpServer, MCP_INSTRUCTIONS, MCP_SERVER_NAME } from './server.js';
export { MAX_MESSAGES_PER_REQUEST, mcpErrorHandler, mcpRouter } from './http.js';
export { serveStdio } from './stdio.js';
export { BOOKMARK_META_KEY } from './run-tool.js';
export { CHARS_PER_TOKEN, DEFAULT_MAX_TOKENS, MAX_MAX_TOKENS, budgetCounter, clipText, fitJson, fitList } from './budget.js';
