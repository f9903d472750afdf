import { randomUUID } from 'node:crypto';
import { openAiBasics } from './fake-openai-protocol.js';
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
  const { errorBody, other, refuseCaller } = openAiBasics(apiKey, models);
  const api = await startFakeModelApi(
    {
      other,
      isModelCall: (method, path) => method === 'POST' && path === '/v1/chat/completions',
      refuse(request) {
        const refused = refuseCaller(request);
        if (refused) return refused;
        const { messages, response_format: format } = request.body as Record<string, unknown>;
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
