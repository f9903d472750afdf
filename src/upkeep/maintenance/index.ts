export {
  MaintenanceWorker,
  HALT_AFTER,
  type MaintenanceMode,
  type MaintenanceReport,
  type MaintenanceSettings,
  type ActionOutcome,
} from './maintenance-worker.js';
export { diagnose, healthScore, type Diagnostics } from './diagnostics.js';
export { recommend, type Recommendation, type RepairAction } from './repairs.js';
export { ACTION_LIMITS, DEFAULT_AUTO_ACTIONS, type ActionLimit } from '../../config/index.js';
