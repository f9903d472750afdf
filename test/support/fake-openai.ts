import { randomUUID } from 'node:crypto';
import { sendJson } from './fake-http.js';
import { fakeApiTokens, startFakeModelApi, type FakeApiScript, type FakeModelApi } from './fake-model-api.js';

/**
 * A protocol-faithful stand-in for an OpenAI-compatible server (OpenAI, vLLM, llama.cpp, LM
 * Studio): POST /v1/chat/completions with `Authorization: Bearer <key>`, chat.completion bodies
 * with `usage`, OpenAI's `{error: {message, type, param, code}}` bodies, GET /v1/models.
 * `response_format` is checked as OpenAI checks it (json_schema needs a name and a schema); a
 * server that only knows json_object (`jsonSchema: false`, like older llama.cpp builds) refuses
 * json_schema with a 400 naming `response_format`.
 */
export interface FakeOpenAi extends FakeModelApi {
  readonly apiKey: string;
}

export async function startFakeOpenAi(
  options: { apiKey?: string; models?: string[]; jsonSchema?: boolean; script?: FakeApiScript } = {},
): Promise<FakeOpenAi> {
  const apiKey = options.apiKey ?? `sk-fake-${randomUUID().replaceAll('-', '')}`;
  const models = options.models ?? ['gpt-4o-mini'];
  const errorBody = (status: number, message: string) => ({
    error: {
      message,
      type: status === 429 ? 'requests' : status >= 500 ? 'server_error' : 'invalid_request_error',
      param: null,
      code: status === 401 ? 'invalid_api_key' : status === 429 ? 'rate_limit_exceeded' : null,
    },
  });
  const authorized = (header: string | undefined) => header === `Bearer ${apiKey}`;
  const api = await startFakeModelApi(
    {
      other(req, url, res) {
        if (req.method !== 'GET' || url.pathname !== '/v1/models') return false;
        if (!authorized(req.headers.authorization)) sendJson(res, 401, errorBody(401, 'Incorrect API key provided.'));
        else
          sendJson(res, 200, {
            object: 'list',
            data: models.map((id) => ({ id, object: 'model', created: 1_700_000_000, owned_by: 'fake' })),
          });
        return true;
      },
      isModelCall: (method, path) => method === 'POST' && path === '/v1/chat/completions',
      refuse(request) {
        if (!authorized(request.headers.authorization)) {
          // OpenAI names the key it refused, masked; the provider must not echo even that.
          const shown = (request.headers.authorization ?? '').replace(/^Bearer /, '');
          return { status: 401, body: errorBody(401, `Incorrect API key provided: ${shown.slice(0, 3)}***${shown.slice(-4)}.`) };
        }
        const { model, messages, response_format: format } = request.body as Record<string, unknown>;
        if (typeof model !== 'string' || !models.includes(model))
          return { status: 404, body: errorBody(404, `The model \`${String(model)}\` does not exist or you do not have access to it.`) };
        if (!Array.isArray(messages) || messages.length === 0)
          return { status: 400, body: errorBody(400, "'messages' must contain at least one message.") };
        if (format !== undefined) {
          const type = (format as { type?: unknown }).type;
          if (type === 'json_schema') {
            if (options.jsonSchema === false)
              return { status: 400, body: errorBody(400, "'response_format.type' must be one of 'text', 'json_object'") };
            const spec = (format as { json_schema?: { name?: unknown; schema?: unknown } }).json_schema;
            if (typeof spec?.name !== 'string' || !/^[a-zA-Z0-9_-]{1,64}$/.test(spec.name) || typeof spec.schema !== 'object')
              return { status: 400, body: errorBody(400, "Invalid schema for response_format: 'json_schema' needs a name and a schema.") };
          } else if (type === 'json_object') {
            const said = JSON.stringify(messages).toLowerCase();
            if (!said.includes('json'))
              return {
                status: 400,
                body: errorBody(
                  400,
                  "'messages' must contain the word 'json' in some form, to use 'response_format' of type 'json_object'.",
                ),
              };
          } else if (type !== 'text') return { status: 400, body: errorBody(400, "Invalid value for 'response_format.type'.") };
        }
        return null;
      },
      errorBody,
      answer: (request, text) => {
        const prompt = fakeApiTokens(JSON.stringify(request.body.messages));
        const completion = fakeApiTokens(text);
        return {
          id: `chatcmpl-${randomUUID()}`,
          object: 'chat.completion',
          created: Math.floor(Date.now() / 1000),
          model: request.model,
          choices: [{ index: 0, message: { role: 'assistant', content: text, refusal: null }, logprobs: null, finish_reason: 'stop' }],
          usage: { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion },
        };
      },
    },
    '/v1',
    options.script,
  );
  return Object.assign(api, { apiKey });
}
