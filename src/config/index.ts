export { loadConfig } from './load.js';
export { namespaceSchema, type Config, type ApiKeyConfig } from './schema.js';
export {
  DEFAULT_ACCESS_MAX_PENDING,
  DEFAULT_DOCUMENT_POLL_MS,
  DEFAULT_DUPLICATE_THRESHOLD,
  DEFAULT_EMBEDDING_MODEL,
  DEFAULT_EMBEDDING_TRACKER_POLL_MS,
  DEFAULT_MAINTENANCE_COOLDOWN_MS,
  DEFAULT_MAINTENANCE_HOURLY_BUDGET,
  DEFAULT_NEAR_DUPLICATE_THRESHOLD,
  DEFAULT_RETENTION_BATCH_SIZE,
} from './defaults.js';
export { ACTION_LIMITS, DEFAULT_AUTO_ACTIONS, type ActionLimit, type RepairAction } from './action-limits.js';
export { DEFAULT_CHECKPOINT_RETENTION_DAYS, DEFAULT_SESSION_SWEEP_INTERVAL_MS } from './session-defaults.js';
export { DEFAULT_CLASSIFY_BATCH_SIZE } from './pipeline-defaults.js';
