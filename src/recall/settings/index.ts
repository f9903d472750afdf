export {
  DEFAULT_RECALL_SETTINGS,
  parseRecallSettings,
  recallSettingsSchema,
  type DeepPartial,
  type RecallSettings,
  type RecallSettingsOverrides,
} from './schema.js';
export {
  isRecallRecipeName,
  RECALL_RECIPE_NAMES,
  RECALL_RECIPES,
  resolveRecallSettings,
  type RecallRecipeName,
} from './recipes.js';
export { recallSettingsFromEnv, type RecallEnvironment } from './env.js';
