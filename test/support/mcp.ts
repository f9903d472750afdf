import { Client } from '@modelcontextprotocol/sdk/client/index.js';

export interface ToolOutcome {
  isError: boolean;
  text: string;
  /** The text parsed as JSON when it is JSON, else null. */
  json: any;
}

/** A tool call through the SDK's real client, its single text block returned as text and JSON. */
export async function callTool(
  client: Client,
  name: string,
  args: Record<string, unknown>,
  options: { timeoutMs?: number } = {},
): Promise<ToolOutcome & { meta: Record<string, unknown> | undefined }> {
  const result = await client.callTool(
    { name, arguments: args },
    undefined,
    options.timeoutMs ? { timeout: options.timeoutMs } : undefined,
  );
  const content = result.content as Array<{ type: string; text?: string }>;
  if (content.length !== 1 || content[0]!.type !== 'text')
    throw new Error(`tool ${name} answered ${JSON.stringify(content).slice(0, 200)}; expected one text block`);
  const text = content[0]!.text ?? '';
  let json: unknown = null;
  try {
    json = JSON.parse(text);
  } catch {
    json = null;
  }
  return { isError: result.isError === true, text, json, meta: result._meta as Record<string, unknown> | undefined };
}

export function newClient(): Client {
  return new Client({ name: 'mnemograph-test', version: '1.0.0' });
}

export const EXPECTED_TOOLS = [
  'add_observations',
  'create_entities',
  'create_relations',
  'export_namespace',
  'forget',
  'get_entity',
  'get_memories',
  'import_namespace',
  'recall',
  'remember',
  'remember_batch',
  'search',
  'search_entities',
  'session_end',
  'session_prompt',
  'session_recover',
  'session_start',
  'session_status',
  'session_tool_result',
  'timeline',
];
