export { OllamaProvider, AVAILABILITY_TIMEOUT_MS, type OllamaProviderOptions } from './ollama-provider.js';
export { parseLlmJson } from './parse-json.js';
export { meterUsage, recordUsage, emptyUsage, type LlmUsage } from './usage.js';
export { LlmError, LlmHttpError, LlmParseError, LlmTimeoutError, isLlmError, type GenerateOptions, type LlmProvider } from './provider.js';
