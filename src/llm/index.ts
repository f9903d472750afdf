export { OllamaProvider, AVAILABILITY_TIMEOUT_MS, type OllamaProviderOptions } from './ollama-provider.js';
export { OpenAiProvider, type OpenAiProviderOptions } from './openai-provider.js';
export { AnthropicProvider, type AnthropicProviderOptions } from './anthropic-provider.js';
export { ClaudeCodeProvider, type ClaudeCodeProviderOptions } from './claude-code-provider.js';
export { FallbackProvider, type NamedProvider } from './fallback-provider.js';
export { createLlmProvider, DEFAULT_LLM_MODELS, LLM_PROVIDERS, type LlmProviderName, type LlmSettings } from './create-provider.js';
export { parseLlmJson } from './parse-json.js';
export { meterUsage, recordUsage, emptyUsage, type LlmUsage } from './usage.js';
export { LlmError, LlmHttpError, LlmParseError, LlmTimeoutError, isLlmError, type GenerateOptions, type LlmProvider } from './provider.js';
