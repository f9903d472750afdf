export { loadConfig } from './load.js';
export { namespaceSchema, type Config, type ApiKeyConfig } from './schema.js';
export { DEFAULT_DUPLICATE_THRESHOLD, DEFAULT_NEAR_DUPLICATE_THRESHOLD } from './defaults.js';
export { ACTION_LIMITS, DEFAULT_AUTO_ACTIONS, type ActionLimit, type RepairAction } from './action-limits.js';
export { DEFAULT_CHECKPOINT_RETENTION_DAYS } from './session-defaults.js';
