export { loadConfig } from './load.js';
export { namespaceSchema, type Config, type ApiKeyConfig } from './schema.js';
export * from './defaults.js';
