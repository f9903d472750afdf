import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startFakeOllama, type FakeOllama } from '../../test/support/fake-ollama.js';
import { startFakeOpenAi, type FakeOpenAi } from '../../test/support/fake-openai.js';
import { createLlmProvider } from './create-provider.js';
import { FallbackProvider } from './fallback-provider.js';
import { OllamaProvider } from './ollama-provider.js';
import { providerReport } from './provider-report.js';
import { LlmHttpError } from './provider.js';

const SCHEMA = { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] };

describe('the provider chain (LLM_PROVIDER=ollama,openai)', () => {
  let ollama: FakeOllama;
  let openai: FakeOpenAi;
  let chain: FallbackProvider;
  beforeEach(async () => {
    ollama = await startFakeOllama({ models: ['qwen3:4b'] });
    openai = await startFakeOpenAi();
    chain = createLlmProvider({
      LLM_PROVIDER: ['ollama', 'openai'],
      OLLAMA_HOST: ollama.url,
      OLLAMA_MODEL: 'qwen3:4b',
      OPENAI_BASE_URL: openai.url,
      OPENAI_API_KEY: openai.apiKey,
      LLM_MODEL: 'gpt-4o-mini',
    }) as FallbackProvider;
  });
  afterEach(async () => {
    await ollama.close();
    await openai.close();
  });

  it('the first provider answers while it can; the model it used is recorded', async () => {
    expect(chain).toBeInstanceOf(FallbackProvider);
    ollama.enqueue('{"ok":true}');
    await expect(chain.generate('p', { timeoutMs: 2_000, format: SCHEMA })).resolves.toBe('{"ok":true}');
    expect(chain.model).toBe('qwen3:4b');
    expect(openai.requests).toHaveLength(0);
  });

  it('Ollama down (connection refused): OpenAI answers, and the chain says so', async () => {
    await ollama.close();
    openai.enqueue('{"ok":false}');
    await expect(chain.generate('p', { timeoutMs: 2_000, format: SCHEMA })).resolves.toBe('{"ok":false}');
    expect(chain.model).toBe('openai:gpt-4o-mini');
    expect(openai.requests).toHaveLength(1);
    ollama = await startFakeOllama(); // afterEach closes something
  });

  it('a 5xx of the first provider moves on, inside the one deadline', async () => {
    ollama.enqueue({ status: 500, error: 'llama runner process has terminated' });
    openai.enqueue('{"ok":true}');
    await expect(chain.generate('p', { timeoutMs: 2_000, format: SCHEMA })).resolves.toBe('{"ok":true}');
    expect(chain.model).toBe('openai:gpt-4o-mini');
    expect(ollama.requests).toHaveLength(1);
  });

  it('a first provider that hangs takes one call its deadline; it is then asked last for a minute, then first again', async () => {
    ollama.respond(() => ({ text: '{}', delayMs: 5_000 })); // hangs whenever it is asked
    const started = Date.now();
    // The first call: Ollama takes the whole deadline, nothing is left for OpenAI, and the call ends on time.
    await expect(chain.generate('p', { timeoutMs: 300, format: SCHEMA })).rejects.toThrow(/timed out/);
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(openai.requests).toHaveLength(0);

    // The job's retry: OpenAI is asked first while Ollama rests, and Ollama is not asked at all.
    openai.enqueue('{"ok":true}', '{"ok":true}');
    await expect(chain.generate('p', { timeoutMs: 2_000, format: SCHEMA })).resolves.toBe('{"ok":true}');
    await expect(chain.generate('p', { timeoutMs: 2_000, format: SCHEMA })).resolves.toBe('{"ok":true}');
    expect(chain.model).toBe('openai:gpt-4o-mini');
    expect(ollama.requests).toHaveLength(1);

    // A minute later Ollama, answering again, is asked first.
    ollama.enqueue('{"ok":false}');
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(Date.now() + 61_000);
      await expect(chain.generate('p', { timeoutMs: 2_000, format: SCHEMA })).resolves.toBe('{"ok":false}');
    } finally {
      vi.useRealTimers();
    }
    expect(chain.model).toBe('qwen3:4b');
    expect(openai.requests).toHaveLength(2);
  });

  it("when every provider rests, each is still asked, in the chain's order", async () => {
    ollama.enqueue({ status: 503, error: 'server busy' });
    openai.enqueue({ text: '{}', delayMs: 5_000 });
    await expect(chain.generate('p', { timeoutMs: 500, format: SCHEMA })).rejects.toThrow(/timed out/);
    ollama.enqueue('{"ok":true}');
    await expect(chain.generate('p', { timeoutMs: 2_000, format: SCHEMA })).resolves.toBe('{"ok":true}');
    expect(chain.model).toBe('qwen3:4b');
    expect(ollama.requests).toHaveLength(2);
    expect(openai.requests).toHaveLength(1);
  });

  it('never falls back on an answer: a refusal of the request itself is final', async () => {
    ollama.enqueue({ status: 400, error: 'invalid format: expected "json" or a valid JSON schema' });
    const error = await chain.generate('p', { timeoutMs: 2_000, format: SCHEMA }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LlmHttpError);
    expect((error as LlmHttpError).status).toBe(400);
    expect(openai.requests).toHaveLength(0);
    expect(chain.model).toBe('qwen3:4b');
  });

  it('is available while any provider is, and reports each one (never a key)', async () => {
    await ollama.close();
    await expect(chain.available()).resolves.toBe(true);
    const report = await providerReport(chain);
    expect(report.providers).toEqual([
      { name: 'ollama', model: 'qwen3:4b', endpoint: ollama.url, keyConfigured: null, available: false },
      { name: 'openai', model: 'gpt-4o-mini', endpoint: openai.url, keyConfigured: true, available: true },
    ]);
    expect(report.available).toBe(true);
    expect(JSON.stringify(report)).not.toContain(openai.apiKey);
    ollama = await startFakeOllama();
  });

  it('one provider alone is used as it is, Ollama by default', () => {
    expect(createLlmProvider({ OLLAMA_HOST: ollama.url, OLLAMA_MODEL: 'qwen3:4b' })).toBeInstanceOf(OllamaProvider);
  });
});
