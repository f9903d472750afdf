export { loadConfig } from './load.js';
export { namespaceSchema, type Config, type ApiKeyConfig } from './schema.js';
export * from './defaults.js';
export { ACTION_LIMITS, DEFAULT_AUTO_ACTIONS, type ActionLimit, type RepairAction } from './action-limits.js';
export * from './session-defaults.js';
export { DEFAULT_CLASSIFY_BATCH_SIZE } from './pipeline-defaults.js';
