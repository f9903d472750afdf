import { z } from 'zod';
import { importNamespace } from '../../api/index.js';
import { maxTokensWithDefault, namespace } from '../schemas.js';
import { defineTool } from '../tool.js';

/** The JSON Lines text one import_namespace call takes (the HTTP body limit applies too). */
const MAX_MCP_IMPORT_CHARS = 8 * 1024 * 1024;

export default defineTool({
  name: 'import_namespace',
  description:
    "Write lines of an export into a namespace: `lines` is JSON Lines text whose first line is the export's header. Safe to repeat (lines already imported write nothing), so an import that stopped is resumed by sending the same lines again.",
  input: z.object({ namespace, lines: z.string().min(1).max(MAX_MCP_IMPORT_CHARS), max_tokens: maxTokensWithDefault(2_000) }),
  annotations: { readOnlyHint: false, idempotentHint: true },
  async call(args, caller) {
    return JSON.stringify(await importNamespace(caller, { namespace: args.namespace, lines: args.lines.split('\n') }));
  },
});
