import { createHash, randomUUID } from 'node:crypto';
import { openAiBasics } from './fake-openai-protocol.js';
import { fakeApiTokens, startFakeModelApi, type FakeApiScript, type FakeModelApi } from './fake-model-api.js';

/**
 * A protocol-faithful stand-in for an OpenAI-compatible embeddings server: POST /v1/embeddings
 * with `Authorization: Bearer <key>`, `input` a string or an array of up to 2,048 non-empty
 * strings, `encoding_format` float or base64 (little-endian float32, what the official SDK asks
 * for by default), an `embedding` list object with `usage`, OpenAI's `{error: {message, type,
 * param, code}}` bodies, GET /v1/models.
 *
 * Its vectors are a hashed bag of words, `dimensions` long and unit length: texts that share
 * words are near, so recall over them ranks as a real model would on such texts. Scripted
 * replies (fake-model-api.ts) make it slow or refuse: `{status: 429, headers: {'Retry-After': '1'}}`,
 * `{text: '', delayMs: 5_000}`; a plain reply's text is ignored (the vectors come from the input).
 */
export interface FakeEmbeddings extends FakeModelApi {
  readonly apiKey: string;
  readonly dimensions: number;
  /** Every text embedded, in order (the probe and retries included). */
  texts(): string[];
}

/** OpenAI's limit of inputs in one request. */
const MAX_INPUTS = 2_048;

export async function startFakeEmbeddings(
  options: { apiKey?: string; models?: string[]; dimensions?: number; script?: FakeApiScript } = {},
): Promise<FakeEmbeddings> {
  const apiKey = options.apiKey ?? `sk-fake-${randomUUID().replaceAll('-', '')}`;
  const models = options.models ?? ['text-embedding-3-small'];
  const dimensions = options.dimensions ?? 1_536;
  const { errorBody, other, refuseCaller } = openAiBasics(apiKey, models);
  const inputsOf = (body: Record<string, unknown>): string[] => (typeof body.input === 'string' ? [body.input] : (body.input as string[]));
  const api = await startFakeModelApi(
    {
      other,
      isModelCall: (method, path) => method === 'POST' && path === '/v1/embeddings',
      refuse(request) {
        const refused = refuseCaller(request);
        if (refused) return refused;
        const { input, encoding_format: format } = request.body;
        const texts = typeof input === 'string' ? [input] : input;
        if (
          !Array.isArray(texts) ||
          texts.length === 0 ||
          texts.length > MAX_INPUTS ||
          texts.some((t) => typeof t !== 'string' || t === '')
        )
          return { status: 400, body: errorBody(400, "'$.input' is invalid. Please check the API reference.", 'input') };
        if (format !== undefined && format !== 'float' && format !== 'base64')
          return { status: 400, body: errorBody(400, "'encoding_format' must be one of 'float', 'base64'.", 'encoding_format') };
        return null;
      },
      errorBody,
      answer: (request) => {
        const texts = inputsOf(request.body);
        const tokens = texts.reduce((sum, text) => sum + fakeApiTokens(text), 0);
        return {
          object: 'list',
          data: texts.map((text, index) => {
            const vector = bagOfWords(text, dimensions);
            const embedding =
              request.body.encoding_format === 'base64' ? Buffer.from(vector.buffer).toString('base64') : Array.from(vector);
            return { object: 'embedding', index, embedding };
          }),
          model: request.model,
          usage: { prompt_tokens: tokens, total_tokens: tokens },
        };
      },
    },
    '/v1',
    options.script ?? (() => ''),
  );
  return Object.assign(api, {
    apiKey,
    dimensions,
    texts: () => api.requests.filter((r) => r.path === '/v1/embeddings' && r.body.input !== undefined).flatMap((r) => inputsOf(r.body)),
  });
}

/** Each word (lower-cased, letters and digits) adds one to the coordinate its hash picks; unit length. */
export function bagOfWords(text: string, dimensions: number): Float32Array {
  const vector = new Float32Array(dimensions);
  for (const word of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
    vector[createHash('sha256').update(word).digest().readUInt32LE(0) % dimensions]! += 1;
  }
  const norm = Math.hypot(...vector);
  // A text without a word still gets a vector (OpenAI embeds punctuation too).
  if (norm === 0) vector[0] = 1;
  else for (let i = 0; i < dimensions; i++) vector[i] = vector[i]! / norm;
  return vector;
}
