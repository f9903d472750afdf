import type { McpServer, ToolAnnotations } from '@modelcontextprotocol/server';
import type { z } from 'zod';
import type { Caller, CallerLimits } from '../api/index.js';
import { runTool } from './run-tool.js';
import type { ToolContext } from './tool-context.js';

/** Every tool's arguments carry `max_tokens`, the bound of its answer (src/mcp/budget.ts). */
type ToolInput = z.ZodObject<{ max_tokens: z.ZodDefault<z.ZodNumber> } & z.ZodRawShape>;

/** One MCP tool as its file in src/mcp/tools/ states it. */
export interface ToolDefinition<S extends ToolInput> {
  name: string;
  description: string;
  /** The arguments; a function when they name a configured bound (the largest recall limit). */
  input: S | ((limits: CallerLimits) => S);
  annotations: ToolAnnotations;
  /** The call, made as `caller` inside runTool: its answer's text, bounded afterwards by max_tokens. */
  call(args: z.infer<S>, caller: Caller, ctx: ToolContext): Promise<string>;
}

/** A tool ready to be registered on one session's server. */
export interface McpTool {
  readonly name: string;
  register(server: McpServer, ctx: ToolContext, limits: CallerLimits): void;
}

export function defineTool<S extends ToolInput>(tool: ToolDefinition<S>): McpTool {
  return {
    name: tool.name,
    register(server, ctx, limits) {
      // Typed here by the definition's own schema; the server sees the list's common shape.
      const inputSchema: z.ZodObject = typeof tool.input === 'function' ? tool.input(limits) : tool.input;
      server.registerTool(tool.name, { description: tool.description, inputSchema, annotations: tool.annotations }, (args) =>
        runTool(ctx, tool.name, args.max_tokens as number, (caller) => tool.call(args as z.infer<S>, caller, ctx)),
      );
    },
  };
}
