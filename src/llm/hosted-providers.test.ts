import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startFakeAnthropic, type FakeAnthropic } from '../../test/support/fake-anthropic.js';
import { fakeApiTokens } from '../../test/support/fake-model-api.js';
import { startFakeOpenAi, type FakeOpenAi } from '../../test/support/fake-openai.js';
import { AnthropicProvider } from './anthropic-provider.js';
import { RETRY_BASE_MS } from './hosted-call.js';
import { OpenAiProvider } from './openai-provider.js';
import { parseLlmJson } from './parse-json.js';
import { LlmHttpError, LlmParseError, LlmTimeoutError, type LlmProvider } from './provider.js';
import { meterUsage } from './usage.js';

const SCHEMA = { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'], additionalProperties: false };

/** Records the waits between attempts instead of sleeping them. */
function recordedSleep() {
  const waits: number[] = [];
  return { waits, sleep: async (ms: number) => void waits.push(ms) };
}

const errorOf = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (e: unknown) => e as Error,
  );

describe('OpenAiProvider against a protocol-faithful fake server', () => {
  let fake: FakeOpenAi;
  let clock: ReturnType<typeof recordedSleep>;
  let provider: OpenAiProvider;
  beforeEach(async () => {
    fake = await startFakeOpenAi();
    clock = recordedSleep();
    provider = new OpenAiProvider({ baseUrl: fake.url, apiKey: fake.apiKey, model: 'gpt-4o-mini', sleep: clock.sleep });
  });
  afterEach(() => fake.close());

  it('asks for the JSON Schema as a strict json_schema response_format, authorized, and meters the usage reported', async () => {
    fake.enqueue('{"ok":true}');
    const { usage, outcome } = await meterUsage(() => provider.generate('is it ok?', { timeoutMs: 2_000, format: SCHEMA }));
    expect(outcome).toEqual({ status: 'fulfilled', value: '{"ok":true}' });
    expect(fake.requests).toHaveLength(1);
    expect(fake.requests[0]!.headers.authorization).toBe(`Bearer ${fake.apiKey}`);
    expect(fake.requests[0]!.body).toMatchObject({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'is it ok?' }],
      response_format: { type: 'json_schema', json_schema: { name: 'answer', schema: SCHEMA, strict: true } },
    });
    expect(usage).toMatchObject({ calls: 1, evalTokens: fakeApiTokens('{"ok":true}') });
    expect(usage.promptTokens).toBeGreaterThan(0);
  });

  it('falls back to json_object with the schema in the instructions on a server that refuses json_schema, and stays there', async () => {
    await fake.close();
    fake = await startFakeOpenAi({ jsonSchema: false });
    provider = new OpenAiProvider({ baseUrl: fake.url, apiKey: fake.apiKey, model: 'gpt-4o-mini' });
    fake.enqueue('{"ok":true}', '{"ok":false}');
    await expect(provider.generate('first', { timeoutMs: 2_000, format: SCHEMA })).resolves.toBe('{"ok":true}');
    await expect(provider.generate('second', { timeoutMs: 2_000, format: SCHEMA })).resolves.toBe('{"ok":false}');
    expect(fake.requests.map((r) => (r.body.response_format as { type: string }).type)).toEqual([
      'json_schema',
      'json_object',
      'json_object',
    ]);
    const system = (fake.requests[1]!.body.messages as Array<{ role: string; content: string }>)[0]!;
    expect(system.role).toBe('system');
    expect(system.content).toContain(JSON.stringify(SCHEMA));
  });

  it('a 429 is tried again after the Retry-After the server names; a 503 without one after a jittered backoff', async () => {
    fake.enqueue({ status: 429, headers: { 'retry-after': '1' } }, { status: 503 }, '{"ok":true}');
    const { usage, outcome } = await meterUsage(() => provider.generate('p', { timeoutMs: 5_000, format: SCHEMA }));
    expect(outcome).toEqual({ status: 'fulfilled', value: '{"ok":true}' });
    expect(fake.requests).toHaveLength(3);
    expect(clock.waits[0]).toBe(1_000);
    expect(clock.waits[1]).toBeGreaterThanOrEqual(0);
    expect(clock.waits[1]).toBeLessThanOrEqual(RETRY_BASE_MS * 2);
    expect(usage.calls).toBe(1);
  });

  it('a Retry-After past the deadline is not waited for: the 429 is reported, retriable by the job', async () => {
    fake.enqueue({ status: 429, headers: { 'retry-after': '30' } });
    const error = await errorOf(provider.generate('p', { timeoutMs: 2_000, format: SCHEMA }));
    expect(error).toBeInstanceOf(LlmHttpError);
    expect(error).toMatchObject({ status: 429, retriable: true, details: { reason: 'rate_limited' } });
    expect(clock.waits).toEqual([]);
  });

  it('a 401 is not retried, is reported with its code, and names no key', async () => {
    const wrong = new OpenAiProvider({
      baseUrl: fake.url,
      apiKey: 'sk-wrong-key-0123456789abcdef',
      model: 'gpt-4o-mini',
      sleep: clock.sleep,
    });
    const error = await errorOf(wrong.generate('p', { timeoutMs: 2_000, format: SCHEMA }));
    expect(error).toBeInstanceOf(LlmHttpError);
    expect(error).toMatchObject({ status: 401, retriable: false, code: 'UNAVAILABLE', details: { reason: 'unauthorized' } });
    expect(fake.requests).toHaveLength(1);
    expect(error!.message).not.toContain('sk-wrong-key-0123456789abcdef');
    expect(JSON.stringify(error)).not.toContain('0123456789abcdef');
  });

  it('a server that echoes the key in an error body does not get it into the message', async () => {
    fake.enqueue({ status: 400, message: `upstream refused key ${fake.apiKey}` });
    const error = await errorOf(provider.generate('p', { timeoutMs: 2_000, format: SCHEMA }));
    expect(error).toMatchObject({ status: 400, retriable: false, details: { reason: 'bad_request' } });
    expect(error!.message).not.toContain(fake.apiKey);
    expect(error!.message).toContain('upstream refused key');
  });

  it('a malformed JSON answer reaches the deep path as text, which its parser refuses with a typed error', async () => {
    fake.enqueue('{"ok": tru');
    const text = await provider.generate('p', { timeoutMs: 2_000, format: SCHEMA });
    expect(() => parseLlmJson(text)).toThrow(LlmParseError);
  });

  it('a slow answer is abandoned at the deadline and the server sees the request go away', async () => {
    fake.enqueue({ text: '{"ok":true}', delayMs: 5_000 });
    const started = Date.now();
    const error = await errorOf(provider.generate('p', { timeoutMs: 300, format: SCHEMA }));
    expect(error).toBeInstanceOf(LlmTimeoutError);
    expect(Date.now() - started).toBeLessThan(2_000);
    await expect.poll(() => fake.requests[0]?.aborted).toBe(true);
  });

  it('available() is true when the server lists the model, false with a wrong key or no server', async () => {
    await expect(provider.available()).resolves.toBe(true);
    await expect(new OpenAiProvider({ baseUrl: fake.url, apiKey: 'sk-nope', model: 'gpt-4o-mini' }).available()).resolves.toBe(false);
    await expect(new OpenAiProvider({ baseUrl: fake.url, apiKey: fake.apiKey, model: 'gpt-5' }).available()).resolves.toBe(false);
    await expect(new OpenAiProvider({ baseUrl: 'http://127.0.0.1:9/v1', apiKey: 'k', model: 'gpt-4o-mini' }).available()).resolves.toBe(
      false,
    );
  });
});

describe('AnthropicProvider against a protocol-faithful fake server', () => {
  let fake: FakeAnthropic;
  let clock: ReturnType<typeof recordedSleep>;
  let provider: AnthropicProvider;
  beforeEach(async () => {
    fake = await startFakeAnthropic();
    clock = recordedSleep();
    provider = new AnthropicProvider({ baseUrl: fake.url, apiKey: fake.apiKey, model: 'claude-haiku-4-5', sleep: clock.sleep });
  });
  afterEach(() => fake.close());

  it('asks for the schema by a forced tool call and returns the tool input as JSON text, usage metered', async () => {
    fake.enqueue('{"ok":true}');
    const { usage, outcome } = await meterUsage(() => provider.generate('is it ok?', { timeoutMs: 2_000, format: SCHEMA }));
    expect(outcome).toEqual({ status: 'fulfilled', value: '{"ok":true}' });
    const [request] = fake.requests;
    expect(request!.headers['x-api-key'] ?? request!.headers.authorization?.replace(/^Bearer /, '')).toBe(fake.apiKey);
    expect(request!.headers['anthropic-version']).toBeTruthy();
    expect(request!.body).toMatchObject({
      model: 'claude-haiku-4-5',
      messages: [{ role: 'user', content: 'is it ok?' }],
      tools: [{ name: 'answer', input_schema: SCHEMA }],
      tool_choice: { type: 'tool', name: 'answer' },
    });
    expect(usage).toMatchObject({ calls: 1, evalTokens: fakeApiTokens('{"ok":true}') });
  });

  it('retries a 429 after its Retry-After and a 529 (overloaded) after a backoff', async () => {
    fake.enqueue({ status: 429, headers: { 'retry-after': '2' } }, { status: 529 }, '{"ok":false}');
    await expect(provider.generate('p', { timeoutMs: 5_000, format: SCHEMA })).resolves.toBe('{"ok":false}');
    expect(fake.requests).toHaveLength(3);
    expect(clock.waits[0]).toBe(2_000);
  });

  it('a 401 is not retried, reported with its code and without the key', async () => {
    const wrong = new AnthropicProvider({ baseUrl: fake.url, apiKey: 'sk-ant-wrong-0123456789', model: 'claude-haiku-4-5' });
    const error = await errorOf(wrong.generate('p', { timeoutMs: 2_000, format: SCHEMA }));
    expect(error).toMatchObject({ status: 401, retriable: false, details: { reason: 'unauthorized' } });
    expect(error!.message).toContain('authentication_error');
    expect(error!.message).not.toContain('sk-ant-wrong-0123456789');
    expect(fake.requests).toHaveLength(1);
  });

  it('a model that answers text instead of the tool call: the text goes to the parser, which refuses it', async () => {
    fake.enqueue('I would rather not use the tool.');
    const text = await provider.generate('p', { timeoutMs: 2_000, format: SCHEMA });
    expect(() => parseLlmJson(text)).toThrow(LlmParseError);
  });

  it('a slow answer is abandoned at the deadline', async () => {
    fake.enqueue({ text: '{"ok":true}', delayMs: 5_000 });
    await expect(provider.generate('p', { timeoutMs: 300, format: SCHEMA })).rejects.toBeInstanceOf(LlmTimeoutError);
    await expect.poll(() => fake.requests[0]?.aborted).toBe(true);
  });

  it('available() is true when the model is listed, false with a wrong key', async () => {
    await expect(provider.available()).resolves.toBe(true);
    const wrong: LlmProvider = new AnthropicProvider({ baseUrl: fake.url, apiKey: 'sk-ant-nope', model: 'claude-haiku-4-5' });
    await expect(wrong.available()).resolves.toBe(false);
  });
});

/** A base URL with a key in its user info: `http://user:key@host/v1` (a proxy's key), or the key as the user. */
const inUserInfo = (url: string, userinfo: string) => url.replace('http://', `http://${userinfo}@`);
const URL_KEY = 'sk-proxy-UrlKey0123456789abcdef';

/** The messages of an error and of every cause under it. */
function messagesOf(error: unknown): string {
  const texts: string[] = [];
  for (let e = error, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth += 1)
    texts.push(String((e as Error).message), String((e as Error).stack), JSON.stringify(e));
  return texts.join('\n');
}

describe.each([
  ['openai', startFakeOpenAi, (baseUrl: string, apiKey: string) => new OpenAiProvider({ baseUrl, apiKey, model: 'gpt-4o-mini' })],
  [
    'anthropic',
    startFakeAnthropic,
    (baseUrl: string, apiKey: string) => new AnthropicProvider({ baseUrl, apiKey, model: 'claude-haiku-4-5' }),
  ],
] as const)('%s: keys stay out of messages and the console', (_name, start, create) => {
  let fake: FakeOpenAi | FakeAnthropic;
  beforeEach(async () => {
    fake = await start();
  });
  afterEach(() => fake.close());

  it.each([
    `proxy:${URL_KEY}`,
    URL_KEY,
    `proxy:${encodeURIComponent(`${URL_KEY}/+=`)}`,
  ])("a key in the base URL's user info (%s) is in no error message, cause or health endpoint", async (userinfo) => {
    const provider = create(inUserInfo(fake.url, userinfo), fake.apiKey);
    // Node's fetch refuses a URL with credentials, quoting it whole: the provider must not pass that on.
    const error = await errorOf(provider.generate('p', { timeoutMs: 300, format: SCHEMA }));
    expect(error).toBeInstanceOf(Error);
    expect(error!.message).toContain('[REDACTED]');
    const said = messagesOf(error);
    expect(said).not.toContain(URL_KEY);
    expect(said).not.toContain(URL_KEY.slice(-16));
    expect(JSON.stringify(provider.identity())).not.toContain(URL_KEY.slice(-16));
  });

  it('the SDK writes nothing to the console, even asked to debug: its lines carry answer bodies and URLs', async () => {
    const saved = { OPENAI_LOG: process.env.OPENAI_LOG, ANTHROPIC_LOG: process.env.ANTHROPIC_LOG };
    process.env.OPENAI_LOG = 'debug';
    process.env.ANTHROPIC_LOG = 'debug';
    const written: unknown[][] = [];
    const spies = (['log', 'debug', 'info', 'warn', 'error'] as const).map((level) =>
      vi.spyOn(console, level).mockImplementation((...args: unknown[]) => void written.push(args)),
    );
    try {
      const provider = create(fake.url, fake.apiKey);
      // A server that echoes the caller's key in a refusal, then answers.
      fake.enqueue({ status: 429, message: `slow down, ${fake.apiKey}`, headers: { 'retry-after-ms': '1' } }, '{"ok":true}');
      await expect(provider.generate('p', { timeoutMs: 2_000, format: SCHEMA })).resolves.toBe('{"ok":true}');
      await errorOf(create(inUserInfo(fake.url, `proxy:${URL_KEY}`), fake.apiKey).generate('p', { timeoutMs: 300, format: SCHEMA }));
    } finally {
      for (const spy of spies) spy.mockRestore();
      for (const [name, value] of Object.entries(saved)) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    }
    expect(JSON.stringify(written)).not.toContain(fake.apiKey.slice(-16));
    expect(JSON.stringify(written)).not.toContain(URL_KEY.slice(-16));
    expect(written).toEqual([]);
  });
});
