import { z } from 'zod';
import { exportNamespace } from '../../api/index.js';
import { maxTokensWithDefault, namespace } from '../schemas.js';
import { defineTool } from '../tool.js';

/** Records per export_namespace page unless asked (a page is halved until it fits max_tokens). */
const DEFAULT_MCP_EXPORT_PAGE = 50;
const MAX_MCP_EXPORT_PAGE = 1_000;
const EXPORT_MAX_TOKENS = 8_000;

/** A namespace that can move (docs/export-import.md), one page at a time. */
export default defineTool({
  name: 'export_namespace',
  description:
    'One page of a namespace as JSON Lines: {"header": <first line of the file>, "lines": <records, one JSON object per line>, "cursor": <pass back as `after`; null at the end>}. Write the header once, then each page\'s lines. A page too large for max_tokens is made smaller.',
  input: z.object({
    namespace,
    after: z.string().max(1_000).optional().describe('The cursor of the previous page.'),
    first: z.number().int().min(1).max(MAX_MCP_EXPORT_PAGE).optional().describe(`Records per page (default ${DEFAULT_MCP_EXPORT_PAGE}).`),
    vectors: z.boolean().optional().describe('Include chunk vectors (an import embeds chunks without one).'),
    max_tokens: maxTokensWithDefault(EXPORT_MAX_TOKENS),
  }),
  annotations: { readOnlyHint: true },
  async call(args, caller, ctx) {
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
  },
});
