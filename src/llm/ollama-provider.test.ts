import { Ollama } from 'ollama';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FAKE_OLLAMA_VERSION, startFakeOllama, type FakeOllama } from '../../test/support/fake-ollama.js';
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
    expect(fake.requests[0]).toMatchObject({ path: '/api/generate', model: 'qwen3:4b', prompt: 'extract this', format: 'json', stream: false });
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
