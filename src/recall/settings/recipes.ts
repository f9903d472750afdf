import { parseRecallSettings, type RecallSettings, type RecallSettingsOverrides } from './schema.js';
import { ValidationError } from '../../errors.js';

/** Every ranking adjustment off: a leg's own order, for the benchmark baselines. */
const PLAIN_RANKING: RecallSettingsOverrides = {
  graph: { enabled: false },
  resolution: { enabled: false },
  importance: { enabled: false },
  time: { enabled: false },
  context: { enabled: false },
  rerank: { enabled: false },
};

/**
 * Named recipes (graphiti's search_config_recipes): each is the part of the settings it changes
 * from the schema's defaults.
 */
export const RECALL_RECIPES = {
  default: {},
  vectorOnly: { ...PLAIN_RANKING, legs: { vector: true, keyword: false, hints: false, entity: false } },
  keywordOnly: { ...PLAIN_RANKING, legs: { vector: false, keyword: true, hints: false, entity: false } },
  fast: { legs: { entity: false }, graph: { enabled: false }, rerank: { enabled: false } },
} satisfies Record<string, RecallSettingsOverrides>;

export type RecallRecipeName = keyof typeof RECALL_RECIPES;
export const RECALL_RECIPE_NAMES = Object.keys(RECALL_RECIPES) as RecallRecipeName[];

export function isRecallRecipeName(name: string): name is RecallRecipeName {
  return Object.hasOwn(RECALL_RECIPES, name);
}

/**
 * The recipe's settings with each layer of overrides (the environment's, a request's) merged on
 * top in order — sections merge key by key, values and lists are replaced, `undefined` leaves a
 * value as it was — and the result checked once against the schema. Returns a fresh object;
 * throws ValidationError for an unknown recipe or key and for a value out of range.
 */
export function resolveRecallSettings(recipe: RecallRecipeName = 'default', ...overrides: RecallSettingsOverrides[]): RecallSettings {
  if (!isRecallRecipeName(recipe)) {
    throw new ValidationError(`unknown recall recipe "${String(recipe)}"`, { recipe, known: RECALL_RECIPE_NAMES });
  }
  return parseRecallSettings([RECALL_RECIPES[recipe], ...overrides].reduce<unknown>(mergeSettings, {}));
}

/** The one merge of settings: `patch` over `base`, section by section; neither is changed. */
function mergeSettings(base: unknown, patch: unknown): unknown {
  if (!isPlainObject(base) || !isPlainObject(patch)) return patch;
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(patch)) {
    if (value !== undefined) out[key] = mergeSettings(base[key], value);
  }
  return out;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
