import { AnthropicProvider } from './anthropic-provider.js';
import { ClaudeCodeProvider } from './claude-code-provider.js';
import { FallbackProvider, type NamedProvider } from './fallback-provider.js';
import { OllamaProvider } from './ollama-provider.js';
import { OpenAiProvider } from './openai-provider.js';
import type { LlmProvider } from './provider.js';

export const LLM_PROVIDERS = ['ollama', 'openai', 'anthropic', 'claude-code'] as const;
export type LlmProviderName = (typeof LLM_PROVIDERS)[number];

/** The configuration keys the providers read (the names the official SDKs read where they have one). */
export interface LlmSettings {
  OLLAMA_HOST: string;
  OLLAMA_MODEL: string;
  /** In order: the first answers, the next ones stand in while it is unavailable. Ollama alone when absent. */
  LLM_PROVIDER?: readonly LlmProviderName[];
  /** The model of every provider but Ollama (which keeps OLLAMA_MODEL). */
  LLM_MODEL?: string;
  OPENAI_BASE_URL?: string;
  OPENAI_API_KEY?: string;
  ANTHROPIC_API_KEY?: string;
  ANTHROPIC_BASE_URL?: string;
  /** The `claude` executable; found on PATH when absent. */
  LLM_CLAUDE_CODE_BIN?: string;
}

export const DEFAULT_LLM_MODELS: Record<Exclude<LlmProviderName, 'ollama'>, string> = {
  openai: 'gpt-4o-mini',
  anthropic: 'claude-haiku-4-5',
  'claude-code': 'haiku',
};

/** The deep path's model: one provider, or the chain LLM_PROVIDER lists. */
export function createLlmProvider(settings: LlmSettings): LlmProvider {
  const names = settings.LLM_PROVIDER?.length ? settings.LLM_PROVIDER : (['ollama'] as const);
  const chain: NamedProvider[] = [...new Set(names)].map((name) => ({ name, provider: single(name, settings) }));
  return chain.length === 1 ? chain[0]!.provider : new FallbackProvider(chain);
}

function single(name: LlmProviderName, s: LlmSettings): LlmProvider {
  switch (name) {
    case 'ollama':
      return new OllamaProvider({ host: s.OLLAMA_HOST, model: s.OLLAMA_MODEL });
    case 'openai':
      return new OpenAiProvider({ baseUrl: s.OPENAI_BASE_URL, apiKey: s.OPENAI_API_KEY, model: s.LLM_MODEL ?? DEFAULT_LLM_MODELS.openai });
    case 'anthropic':
      return new AnthropicProvider({
        baseUrl: s.ANTHROPIC_BASE_URL,
        apiKey: s.ANTHROPIC_API_KEY,
        model: s.LLM_MODEL ?? DEFAULT_LLM_MODELS.anthropic,
      });
    case 'claude-code':
      return new ClaudeCodeProvider({ bin: s.LLM_CLAUDE_CODE_BIN, model: s.LLM_MODEL ?? DEFAULT_LLM_MODELS['claude-code'] });
  }
}
