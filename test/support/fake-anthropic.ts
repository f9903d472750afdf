import { randomUUID } from 'node:crypto';
import { sendJson } from './fake-http.js';
import { fakeApiTokens, startFakeModelApi, type FakeApiScript, type FakeModelApi } from './fake-model-api.js';

/**
 * A protocol-faithful stand-in for Anthropic's Messages API: POST /v1/messages with the key (as
 * `x-api-key`, or `Authorization: Bearer`, which the SDK's 1.x releases send) and `anthropic-version`, `max_tokens` required, `{type: "error", error: {type, message}}`
 * bodies, GET /v1/models. A forced tool call (`tool_choice: {type: "tool", name}`) answers with
 * one tool_use block whose input is the scripted text parsed as JSON (text that is not JSON
 * comes back as a text block, as a model that ignored the tool would); otherwise a text block.
 */
export interface FakeAnthropic extends FakeModelApi {
  readonly apiKey: string;
}

const ERROR_TYPES: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  429: 'rate_limit_error',
  500: 'api_error',
  529: 'overloaded_error',
};

export async function startFakeAnthropic(
  options: { apiKey?: string; models?: string[]; script?: FakeApiScript } = {},
): Promise<FakeAnthropic> {
  const apiKey = options.apiKey ?? `sk-ant-fake-${randomUUID().replaceAll('-', '')}`;
  const models = options.models ?? ['claude-haiku-4-5'];
  const errorBody = (status: number, message: string) => ({ type: 'error', error: { type: ERROR_TYPES[status] ?? 'api_error', message } });
  const authorized = (headers: Record<string, string | string[] | undefined>) =>
    headers['x-api-key'] === apiKey || headers.authorization === `Bearer ${apiKey}`;
  const api = await startFakeModelApi(
    {
      other(req, url, res) {
        if (req.method !== 'GET' || url.pathname !== '/v1/models') return false;
        if (!authorized(req.headers)) sendJson(res, 401, errorBody(401, 'invalid x-api-key'));
        else
          sendJson(res, 200, {
            data: models.map((id) => ({ id, type: 'model', display_name: id, created_at: '2025-10-01T00:00:00Z' })),
            has_more: false,
            first_id: models[0],
            last_id: models.at(-1),
          });
        return true;
      },
      isModelCall: (method, path) => method === 'POST' && path === '/v1/messages',
      refuse(request) {
        if (!authorized(request.headers)) return { status: 401, body: errorBody(401, 'invalid x-api-key') };
        if (!request.headers['anthropic-version']) return { status: 400, body: errorBody(400, 'anthropic-version: header is required') };
        const { model, max_tokens: maxTokens, messages, tools, tool_choice: choice } = request.body as Record<string, unknown>;
        if (typeof model !== 'string' || !models.includes(model)) return { status: 404, body: errorBody(404, `model: ${String(model)}`) };
        if (typeof maxTokens !== 'number') return { status: 400, body: errorBody(400, 'max_tokens: Field required') };
        if (!Array.isArray(messages) || messages.length === 0)
          return { status: 400, body: errorBody(400, 'messages: at least one message is required') };
        const forced = (choice as { type?: string; name?: string } | undefined)?.name;
        if (forced !== undefined) {
          const tool = Array.isArray(tools) ? tools.find((t) => (t as { name?: unknown }).name === forced) : undefined;
          const schema = (tool as { input_schema?: { type?: unknown } } | undefined)?.input_schema;
          if (!tool || schema?.type !== 'object')
            return { status: 400, body: errorBody(400, `tool_choice names "${forced}", which is not a tool with an object input_schema`) };
        }
        return null;
      },
      errorBody,
      answer: (request, text) => {
        const forced = (request.body.tool_choice as { name?: string } | undefined)?.name;
        let input: unknown;
        try {
          input = forced ? JSON.parse(text) : undefined;
        } catch {
          input = undefined;
        }
        const content =
          input !== undefined && typeof input === 'object' && input !== null && !Array.isArray(input)
            ? [{ type: 'tool_use', id: `toolu_${randomUUID().replaceAll('-', '')}`, name: forced, input }]
            : [{ type: 'text', text }];
        return {
          id: `msg_${randomUUID().replaceAll('-', '')}`,
          type: 'message',
          role: 'assistant',
          model: request.model,
          content,
          stop_reason: content[0]!.type === 'tool_use' ? 'tool_use' : 'end_turn',
          stop_sequence: null,
          usage: { input_tokens: fakeApiTokens(JSON.stringify(request.body.messages)), output_tokens: fakeApiTokens(text) },
        };
      },
    },
    '',
    options.script,
  );
  return Object.assign(api, { apiKey });
}
