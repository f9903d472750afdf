export { createLlmProvider } from './create-provider.js';
export { parseLlmJson } from './parse-json.js';
export { meterUsage, emptyUsage, type LlmUsage } from './usage.js';
export { LlmParseError, isLlmError, type LlmProvider } from './provider.js';
export { cachedProviderReport, type LlmHealth } from './provider-report.js';
