#!/usr/bin/env node
// The `mnemograph-mcp` bin: the stdio MCP server (src/cli/mcp.ts), run through tsx like `npm start`.
import { register } from 'tsx/esm/api';

register();
await import('../src/cli/mcp.ts');
