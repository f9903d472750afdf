import type { IncomingMessage, ServerResponse } from 'node:http';
import { sendJson } from './fake-http.js';
import type { FakeApiRequest } from './fake-model-api.js';

/**
 * What every fake of OpenAI's API shares (fake-openai.ts, fake-embeddings.ts): its error bodies
 * (`{error: {message, type, param, code}}`), `Authorization: Bearer <key>`, GET /v1/models, and
 * its refusals of a caller: the 401 that names the refused key masked, the 404 of an unknown model.
 */
export function openAiBasics(apiKey: string, models: readonly string[]) {
  const errorBody = (status: number, message: string, param: string | null = null) => ({
    error: {
      message,
      type: status === 429 ? 'requests' : status >= 500 ? 'server_error' : 'invalid_request_error',
      param,
      code: status === 401 ? 'invalid_api_key' : status === 429 ? 'rate_limit_exceeded' : null,
    },
  });
  const authorized = (header: string | undefined) => header === `Bearer ${apiKey}`;
  return {
    errorBody,
    /** GET /v1/models (true when it was that route). */
    other(req: IncomingMessage, url: URL, res: ServerResponse): boolean {
      if (req.method !== 'GET' || url.pathname !== '/v1/models') return false;
      if (!authorized(req.headers.authorization)) sendJson(res, 401, errorBody(401, 'Incorrect API key provided.'));
      else
        sendJson(res, 200, {
          object: 'list',
          data: models.map((id) => ({ id, object: 'model', created: 1_700_000_000, owned_by: 'fake' })),
        });
      return true;
    },
    /**
     * A 401 for a request without the key (OpenAI names the key it refused, masked: the client must
     * not echo even that), a 404 for a model it does not serve; null when both are right.
     */
    refuseCaller(request: FakeApiRequest): { status: number; body: unknown } | null {
      if (!authorized(request.headers.authorization)) {
        const shown = (request.headers.authorization ?? '').replace(/^Bearer /, '');
        return { status: 401, body: errorBody(401, `Incorrect API key provided: ${shown.slice(0, 3)}***${shown.slice(-4)}.`) };
      }
      const { model } = request.body;
      if (typeof model !== 'string' || !models.includes(model)) {
        const message = `The model \`${String(model)}\` does not exist or you do not have access to it.`;
        return { status: 404, body: { error: { message, type: 'invalid_request_error', param: null, code: 'model_not_found' } } };
      }
      return null;
    },
  };
}
