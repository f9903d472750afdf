export { mcpErrorHandler, mcpRouter } from './http.js';
export { serveStdio } from './stdio.js';
