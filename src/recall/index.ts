export type { LegExplanation, RankedCandidate, ScoreExplanation } from './types.js';
export {
  isRecallRecipeName,
  RECALL_RECIPE_NAMES,
  resolveRecallSettings,
  type RecallRecipeName,
  type RecallSettings,
  type RecallSettingsOverrides,
} from './settings/index.js';
export { snippet, toIndexEntry, type IndexEntry } from './disclosure.js';
export { AccessTracker, type AccessTrackerSettings, type AccessTrackerStats } from './access-tracker.js';
export { DisclosureService } from './disclosure-service.js';
export { RecallService, type RecallItemView } from './recall-service.js';
