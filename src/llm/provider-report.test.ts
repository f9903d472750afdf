import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startFakeAnthropic, type FakeAnthropic } from '../../test/support/fake-anthropic.js';
import { startFakeOpenAi, type FakeOpenAi } from '../../test/support/fake-openai.js';
import { ClaudeCodeProvider } from './claude-code-provider.js';
import { createLlmProvider } from './create-provider.js';
import { cachedProviderReport, providerReport } from './provider-report.js';
import type { LlmProvider } from './provider.js';
import { safeEndpoint } from './safe-endpoint.js';

describe('safeEndpoint', () => {
  it('keeps scheme, host, port and path; drops user info, query and fragment', () => {
    expect(safeEndpoint('https://user:sk-secret@api.example.com:8443/v1?api-key=sk-secret#x')).toBe('https://api.example.com:8443/v1');
    expect(safeEndpoint('http://127.0.0.1:11434')).toBe('http://127.0.0.1:11434');
    expect(safeEndpoint('not a url sk-secret')).toBeNull();
    expect(safeEndpoint(undefined)).toBeNull();
  });
});

describe('the provider report health shows', () => {
  let openai: FakeOpenAi;
  let anthropic: FakeAnthropic;
  beforeEach(async () => {
    openai = await startFakeOpenAi();
    anthropic = await startFakeAnthropic();
  });
  afterEach(async () => {
    await openai.close();
    await anthropic.close();
  });

  it('names each provider of the chain, its model and endpoint, whether a key is set and whether it answers; never the key', async () => {
    const withCredentials = openai.url.replace('http://', `http://user:${openai.apiKey}@`) + `?key=${openai.apiKey}`;
    const provider = createLlmProvider({
      LLM_PROVIDER: ['ollama', 'openai', 'anthropic', 'claude-code'],
      OLLAMA_HOST: 'http://127.0.0.1:9',
      OLLAMA_MODEL: 'qwen3:4b',
      OPENAI_BASE_URL: withCredentials,
      OPENAI_API_KEY: openai.apiKey,
      ANTHROPIC_BASE_URL: anthropic.url,
      ANTHROPIC_API_KEY: 'sk-ant-wrong-key-0123456789',
      LLM_CLAUDE_CODE_BIN: '/nonexistent/claude',
      LLM_MODEL: 'gpt-4o-mini',
    });
    const report = await providerReport(provider);
    expect(report.providers).toEqual([
      { name: 'ollama', model: 'qwen3:4b', endpoint: 'http://127.0.0.1:9', keyConfigured: null, available: false },
      // The SDK takes the URL with its credentials; health shows it without them.
      { name: 'openai', model: 'gpt-4o-mini', endpoint: openai.url, keyConfigured: true, available: false },
      { name: 'anthropic', model: 'gpt-4o-mini', endpoint: anthropic.url, keyConfigured: true, available: false },
      { name: 'claude-code', model: 'gpt-4o-mini', endpoint: '/nonexistent/claude', keyConfigured: null, available: false },
    ]);
    expect(report.available).toBe(false);
    const text = JSON.stringify(report);
    expect(text).not.toContain(openai.apiKey);
    expect(text).not.toContain('sk-ant-wrong-key');
  });

  it('a provider answering with the right key and model is available; one without a key says so', async () => {
    const answering = createLlmProvider({
      LLM_PROVIDER: ['openai'],
      OLLAMA_HOST: 'http://127.0.0.1:9',
      OLLAMA_MODEL: 'qwen3:4b',
      OPENAI_BASE_URL: openai.url,
      OPENAI_API_KEY: openai.apiKey,
    });
    expect((await providerReport(answering)).providers).toEqual([
      { name: 'openai', model: 'gpt-4o-mini', endpoint: openai.url, keyConfigured: true, available: true },
    ]);
    const keyless = createLlmProvider({
      LLM_PROVIDER: ['anthropic'],
      OLLAMA_HOST: 'http://127.0.0.1:9',
      OLLAMA_MODEL: 'qwen3:4b',
      ANTHROPIC_BASE_URL: anthropic.url,
    });
    expect((await providerReport(keyless)).providers[0]).toMatchObject({ name: 'anthropic', keyConfigured: false, available: false });
    expect(new ClaudeCodeProvider({ model: 'haiku' }).identity()).toEqual({
      provider: 'claude-code',
      endpoint: 'claude',
      keyConfigured: null,
    });
  });

  it('is asked once per interval, however many probes come', async () => {
    let asked = 0;
    const counting: LlmProvider = {
      model: 'm',
      generate: async () => '',
      available: async () => {
        asked += 1;
        return true;
      },
    };
    const report = cachedProviderReport(counting, 60_000);
    const answers = await Promise.all([report(), report(), report()]);
    expect(asked).toBe(1);
    expect(answers[0]!.providers).toEqual([{ name: 'm', model: 'm', endpoint: null, keyConfigured: null, available: true }]);
    // Past the interval the last report is answered at once and a new check starts behind it.
    const fresh = cachedProviderReport(counting, 0);
    await fresh();
    expect(asked).toBe(2);
    await fresh();
    await expect.poll(() => asked).toBe(3);
  });
});
