import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { bagOfWords, startFakeEmbeddings, type FakeEmbeddings } from '../../test/support/fake-embeddings.js';
import { MnemographError } from '../errors.js';
import { createEmbedder } from './index.js';
import type { OpenAiEmbedderOptions } from './openai-embedder.js';

const MODEL_DIR = path.resolve(
  process.env.EMBEDDING_MODEL_DIR || path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '.models'),
);

describe('OpenAiEmbedder against a fake OpenAI-compatible embeddings server', () => {
  let server: FakeEmbeddings;
  const embedder = (overrides: Partial<OpenAiEmbedderOptions> = {}) =>
    createEmbedder({
      provider: 'openai',
      model: 'text-embedding-3-small',
      baseUrl: server.url,
      apiKey: server.apiKey,
      batchSize: 3,
      timeoutMs: 10_000,
      queryTimeoutMs: 300,
      ...overrides,
    });
  const failure = async (work: Promise<unknown>): Promise<MnemographError> => {
    const error = await work.then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(MnemographError);
    return error as MnemographError;
  };

  beforeAll(async () => {
    server = await startFakeEmbeddings();
  });
  afterEach(() => {
    server.requests.length = 0;
    server.respond(() => '');
  });
  afterAll(() => server.close());

  it('reads the dimension from the first answer, and embeds in input order, in batches, as unit vectors', async () => {
    const e = embedder();
    expect([e.dimensions, e.isLoaded(), e.modelId]).toEqual([0, false, 'openai:text-embedding-3-small']);
    await e.load();
    expect([e.dimensions, e.isLoaded()]).toEqual([1_536, true]);
    const texts = ['alpha beta', 'gamma', 'delta epsilon', 'zeta', 'eta theta iota'];
    const vectors = await e.embed(texts);
    expect(vectors.map((v) => v.length)).toEqual(texts.map(() => 1_536));
    // The SDK asks for base64 and decodes it; the vectors are the server's, in order.
    vectors.forEach((v, i) => expect(Array.from(v)).toEqual(Array.from(bagOfWords(texts[i]!, 1_536))));
    for (const v of vectors) expect(Math.hypot(...v)).toBeCloseTo(1, 5);
    const calls = server.requests.map((r) => r.body.input);
    expect(calls).toEqual([['dimension probe'], texts.slice(0, 3), texts.slice(3)]);
    expect(server.requests.every((r) => r.headers.authorization === `Bearer ${server.apiKey}` && r.body.encoding_format === 'base64')).toBe(
      true,
    );
  });

  it("keeps recall's recent questions: the same question asked again makes no request", async () => {
    const e = embedder();
    const [first] = await e.embed(['where do backups go?'], 'query');
    const [again] = await e.embed(['where do backups go?'], 'query');
    expect(Array.from(again!)).toEqual(Array.from(first!));
    expect(server.requests).toHaveLength(1);
  });

  it('a refused key (401) fails at once with a coded error that names neither the key nor what the server echoed of it', async () => {
    const e = embedder({ apiKey: 'sk-wrong-key-0123456789abcdef' });
    const error = await failure(e.embed(['a text']));
    expect(error.code).toBe('UNAVAILABLE');
    expect(error.retriable).toBe(false);
    expect(error.details).toMatchObject({ provider: 'openai', status: 401, code: 'invalid_api_key' });
    expect(server.requests).toHaveLength(1);
    const seen = JSON.stringify({ message: error.message, details: error.details, cause: String(error.cause), stack: error.stack });
    for (const secret of ['sk-wrong-key-0123456789abcdef', 'cdef', 'sk-***']) expect(seen).not.toContain(secret);
  });

  it('a 429 with Retry-After is tried again after the wait the server named', async () => {
    server.enqueue({ status: 429, message: 'Rate limit reached for requests', headers: { 'Retry-After': '1' } });
    const e = embedder();
    const started = performance.now();
    const [vector] = await e.embed(['after the wait']);
    expect(performance.now() - started).toBeGreaterThanOrEqual(950);
    expect(vector).toHaveLength(1_536);
    expect(server.requests.map((r) => r.body.input)).toEqual([['after the wait'], ['after the wait']]);
  });

  it('rate limited past every retry: a retriable coded error', async () => {
    server.respond(() => ({ status: 429, message: 'Rate limit reached', headers: { 'retry-after-ms': '10' } }));
    const error = await failure(embedder().embed(['never answered']));
    expect([error.code, error.retriable, error.details?.status]).toEqual(['UNAVAILABLE', true, 429]);
    expect(server.requests).toHaveLength(4);
  });

  it("a slow answer past recall's deadline ends the call at the deadline, with TIMEOUT", async () => {
    server.enqueue({ text: '', delayMs: 5_000 });
    const e = embedder();
    const started = performance.now();
    const error = await failure(e.embed(['a slow question'], 'query'));
    const took = performance.now() - started;
    expect([error.code, error.retriable]).toEqual(['TIMEOUT', true]);
    expect(took).toBeGreaterThanOrEqual(250);
    expect(took).toBeLessThan(2_000);
    await expect.poll(() => server.requests[0]?.aborted).toBe(true);
  });

  it('an answer that is not one vector per text is a coded error, not a short list', async () => {
    server.enqueue({ raw: JSON.stringify({ object: 'list', data: [{ object: 'embedding', index: 0, embedding: [0.1, 0.2] }] }) });
    const error = await failure(embedder().embed(['one', 'two']));
    expect([error.code, error.retriable]).toEqual(['UNAVAILABLE', false]);
    server.enqueue({ raw: '{"object": "list", "data": [' });
    expect((await failure(embedder().embed(['broken']))).code).toBe('UNAVAILABLE');
  });

  it('an unreachable server is a retriable coded error', async () => {
    const error = await failure(embedder({ baseUrl: 'http://127.0.0.1:9/v1', timeoutMs: 1_500 }).embed(['nobody there']));
    expect(['UNAVAILABLE', 'TIMEOUT']).toContain(error.code);
    expect(error.retriable).toBe(true);
  });

  it("counts tokens with MiniLM's tokenizer when it is provisioned, else estimates them", async () => {
    const withTokenizer = embedder({ tokenizerDir: MODEL_DIR });
    const estimating = embedder();
    await Promise.all([withTokenizer.load(), estimating.load()]);
    const local = createEmbedder({ modelDir: MODEL_DIR });
    await local.load();
    const text = 'Tokenization of unfamiliar words splits them into pieces.';
    expect(withTokenizer.countTokens(text)).toBe(local.countTokens(text));
    expect(estimating.countTokens(text)).toBe(Math.ceil(text.length / 4));
    await local.dispose();
  });
});
