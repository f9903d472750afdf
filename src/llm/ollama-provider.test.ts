import { Ollama } from 'ollama';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  DEFAULT_FAKE_SPEED,
  FAKE_OLLAMA_VERSION,
  fakeTokenCount,
  startFakeOllama,
  type FakeOllama,
} from '../../test/support/fake-ollama.js';
import { meterUsage } from './usage.js';
import { OllamaProvider } from './ollama-provider.js';
import { LlmError, LlmHttpError, LlmTimeoutError } from './provider.js';

describe('OllamaProvider against a protocol-faithful fake server', () => {
  let fake: FakeOllama;
  let provider: OllamaProvider;

  beforeEach(async () => {
    fake = await startFakeOllama({ models: ['qwen3:4b'] });
    provider = new OllamaProvider({ host: fake.url, model: 'qwen3:4b' });
  });
  afterEach(async () => {
    await fake.close();
  });

  it('sends a non-streamed generate request and returns the response text', async () => {
    fake.enqueue('<think>x</think>{"facts":[]}');
    await expect(provider.generate('extract this', { timeoutMs: 2_000, format: 'json' })).resolves.toBe('<think>x</think>{"facts":[]}');
    expect(fake.requests).toHaveLength(1);
    expect(fake.requests[0]).toMatchObject({
      path: '/api/generate',
      model: 'qwen3:4b',
      prompt: 'extract this',
      format: 'json',
      stream: false,
    });
  });

  it('sends a JSON Schema as format and meters the tokens and durations the server reports', async () => {
    const schema = { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] };
    fake.enqueue('{"ok":true}', '{"ok":false}');
    const { usage, outcome } = await meterUsage(async () => {
      await provider.generate('first prompt', { timeoutMs: 2_000, format: schema });
      return provider.generate('a second, longer prompt', { timeoutMs: 2_000, format: schema });
    });
    expect(outcome).toEqual({ status: 'fulfilled', value: '{"ok":false}' });
    expect(fake.requests.map((r) => r.format)).toEqual([schema, schema]);
    expect(usage.calls).toBe(2);
    expect(usage.promptTokens).toBe(fakeTokenCount('first prompt') + fakeTokenCount('a second, longer prompt'));
    expect(usage.evalTokens).toBe(fakeTokenCount('{"ok":true}') + fakeTokenCount('{"ok":false}'));
    const expectedEvalMs = (usage.evalTokens / DEFAULT_FAKE_SPEED.evalTokensPerSecond) * 1000;
    expect(usage.evalDurationMs).toBeCloseTo(expectedEvalMs, 3);
    expect(usage.totalDurationMs).toBeGreaterThan(usage.evalDurationMs);
    // Outside a meter nothing is recorded and nothing fails.
    fake.enqueue('{"ok":true}');
    await expect(provider.generate('unmetered', { timeoutMs: 2_000, format: schema })).resolves.toBe('{"ok":true}');
  });

  it('is refused by the server, as Ollama refuses it, when format is neither "json" nor a schema', async () => {
    const error = await provider.generate('p', { timeoutMs: 2_000, format: 'yaml' as never }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LlmHttpError);
    expect((error as LlmHttpError).status).toBe(400);
    expect((error as Error).message).toMatch(/invalid format/);
  });

  it('a real-time fake takes as long as the model would', async () => {
    await fake.close();
    fake = await startFakeOllama({
      models: ['qwen3:4b'],
      realTime: true,
      speed: { evalTokensPerSecond: 100, promptTokensPerSecond: 1e6, loadMs: 0 },
    });
    provider = new OllamaProvider({ host: fake.url, model: 'qwen3:4b' });
    const text = 'x'.repeat(4 * 30); // 30 tokens at 100 tokens/s: 300 ms
    fake.enqueue(text);
    const started = Date.now();
    await provider.generate('p', { timeoutMs: 5_000 });
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    fake.enqueue(text);
    await expect(provider.generate('p', { timeoutMs: 100 })).rejects.toBeInstanceOf(LlmTimeoutError);
  });

  it('surfaces HTTP errors with status and body', async () => {
    fake.enqueue({ status: 500, error: 'llama runner process has terminated' });
    const error = await provider.generate('p', { timeoutMs: 2_000 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LlmHttpError);
    expect((error as LlmHttpError).status).toBe(500);
    expect((error as Error).message).toMatch(/HTTP 500.*llama runner process has terminated/);
    expect((error as LlmError).retriable).toBe(true);
  });

  it('aborts a slow call at the deadline and the server sees the request go away', async () => {
    fake.enqueue({ text: '{}', delayMs: 5_000 });
    const started = Date.now();
    const error = await provider.generate('p', { timeoutMs: 200 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LlmTimeoutError);
    expect((error as Error).message).toMatch(/timed out after 200 ms/);
    expect(Date.now() - started).toBeLessThan(2_000);
    await expect.poll(() => fake.requests[0]?.aborted).toBe(true);
  });

  it('reports an unreachable server as a retriable LlmError', async () => {
    await fake.close();
    const error = await provider.generate('p', { timeoutMs: 2_000 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LlmError);
    expect((error as Error).message).toMatch(/unreachable/);
    fake = await startFakeOllama(); // afterEach closes something
  });

  it("a key in OLLAMA_HOST's user info (a proxy's) is in no error message nor its causes; health shows the host without it", async () => {
    const key = 'sk-proxy-OllamaKey0123456789abcdef';
    const guarded = new OllamaProvider({ host: fake.url.replace('http://', `http://proxy:${key}@`), model: 'qwen3:4b' });
    const error = await guarded.generate('p', { timeoutMs: 2_000 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LlmError);
    expect((error as Error).message).toMatch(/unreachable at http:\/\/127\.0\.0\.1:\d+: .*\[REDACTED\]/);
    const said: string[] = [];
    for (let e: unknown = error, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth += 1)
      said.push(String((e as Error).message), String((e as Error).stack));
    expect(said.join('\n')).not.toContain(key.slice(-16));
    expect(JSON.stringify(guarded.identity())).not.toContain(key.slice(-16));
  });

  it('available() is true only when the server answers and lists the model', async () => {
    await expect(provider.available()).resolves.toBe(true);
    fake.setModels(['llama3:8b']);
    await expect(provider.available()).resolves.toBe(false);
    await expect(new OllamaProvider({ host: 'http://127.0.0.1:9', model: 'qwen3:4b' }).available()).resolves.toBe(false);
  });

  it('the fake speaks the protocol the real client expects: chat, NDJSON streams, version, unknown model', async () => {
    const client = new Ollama({ host: fake.url });
    fake.enqueue('hello from chat', 'a streamed answer that spans several NDJSON pieces');
    const chat = await client.chat({ model: 'qwen3:4b', messages: [{ role: 'user', content: 'hi' }], stream: false });
    expect(chat.message).toEqual({ role: 'assistant', content: 'hello from chat' });
    let streamed = '';
    for await (const part of await client.generate({ model: 'qwen3:4b', prompt: 'p', stream: true })) streamed += part.response;
    expect(streamed).toBe('a streamed answer that spans several NDJSON pieces');
    expect((await client.version()).version).toBe(FAKE_OLLAMA_VERSION);
    await expect(client.generate({ model: 'nope:1b', prompt: 'p', stream: false })).rejects.toThrow(/model "nope:1b" not found/);
    expect(fake.requests.map((r) => [r.path, r.prompt, r.stream])).toEqual([
      ['/api/chat', 'hi', false],
      ['/api/generate', 'p', true],
    ]);
  });
});

describe('LlmHttpError', () => {
  it('redacts the body before cutting it, so no part of a secret past the cut survives', async () => {
    const { LlmHttpError } = await import('./provider.js');
    const key = 'AKIAIOSFODNN7EXAMPLE';
    // The key straddles the 200-character cut: cut first, its first 14 characters would survive.
    const body = `${'x'.repeat(185)} ${key} upstream failed`;
    const error = new LlmHttpError(500, body, 'qwen3:4b');
    expect(error.message).not.toContain(key.slice(0, 8));
  });
});
