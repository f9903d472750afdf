export {
  DEFAULT_RECALL_SETTINGS,
  parseRecallSettings,
  recallSettingsSchema,
  type DeepPartial,
  type FusionMethod,
  type KeywordNormalization,
  type MissingLegPolicy,
  type RecallSettings,
  type RecallSettingsOverrides,
} from '../../config/index.js';
export {
  isRecallRecipeName,
  RECALL_RECIPE_NAMES,
  RECALL_RECIPES,
  resolveRecallSettings,
  type RecallRecipeName,
} from './recipes.js';
export { recallSettingsFromEnv, type RecallEnvironment } from './env.js';
