import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { exportNamespace, importNamespace } from '../api/index.js';
import { runTool } from './errors.js';
import { maxTokensWithDefault, namespace } from './schemas.js';
import type { ToolContext } from './tool-context.js';

/** Records per export_namespace page unless asked (a page is halved until it fits max_tokens). */
const DEFAULT_MCP_EXPORT_PAGE = 50;
const MAX_MCP_EXPORT_PAGE = 1_000;
/** The JSON Lines text one import_namespace call takes (the HTTP body limit applies too). */
const MAX_MCP_IMPORT_CHARS = 8 * 1024 * 1024;
const EXPORT_MAX_TOKENS = 8_000;

/** export_namespace and import_namespace: a namespace that can move (docs/export-import.md). */
export function registerNamespaceTools(server: McpServer, ctx: ToolContext): void {
  server.registerTool(
    'export_namespace',
    {
      description:
        'One page of a namespace as JSON Lines: {"header": <first line of the file>, "lines": <records, one JSON object per line>, "cursor": <pass back as `after`; null at the end>}. Write the header once, then each page\'s lines. A page too large for max_tokens is made smaller.',
      inputSchema: {
        namespace,
        after: z.string().max(1_000).optional().describe('The cursor of the previous page.'),
        first: z
          .number()
          .int()
          .min(1)
          .max(MAX_MCP_EXPORT_PAGE)
          .optional()
          .describe(`Records per page (default ${DEFAULT_MCP_EXPORT_PAGE}).`),
        vectors: z.boolean().optional().describe('Include chunk vectors (an import embeds chunks without one).'),
        max_tokens: maxTokensWithDefault(EXPORT_MAX_TOKENS),
      },
      annotations: { readOnlyHint: true },
    },
    (args) =>
      runTool(ctx, 'export_namespace', args.max_tokens, async (caller) => {
        // Lines are never clipped (a clipped line is not JSON): the page shrinks until it fits.
        for (let first = args.first ?? DEFAULT_MCP_EXPORT_PAGE; ; first = Math.max(1, Math.floor(first / 2))) {
          const page = await exportNamespace(caller, { namespace: args.namespace, after: args.after, first, vectors: args.vectors });
          const text = JSON.stringify({
            header: JSON.stringify(page.header),
            lines: page.lines.map((line) => JSON.stringify(line)).join('\n'),
            cursor: page.cursor,
          });
          if (first === 1 || ctx.count(text) <= args.max_tokens) return text;
        }
      }),
  );

  server.registerTool(
    'import_namespace',
    {
      description:
        "Write lines of an export into a namespace: `lines` is JSON Lines text whose first line is the export's header. Safe to repeat (lines already imported write nothing), so an import that stopped is resumed by sending the same lines again.",
      inputSchema: { namespace, lines: z.string().min(1).max(MAX_MCP_IMPORT_CHARS), max_tokens: maxTokensWithDefault(2_000) },
      annotations: { readOnlyHint: false, idempotentHint: true },
    },
    (args) =>
      runTool(ctx, 'import_namespace', args.max_tokens, async (caller) =>
        JSON.stringify(await importNamespace(caller, { namespace: args.namespace, lines: args.lines.split('\n') })),
      ),
  );
}
