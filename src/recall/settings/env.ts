import type { Config } from '../../config/index.js';
import type { RecallRecipeName } from './recipes.js';
import type { RecallSettingsOverrides } from './schema.js';

export type RecallEnvironment = Pick<
  Config,
  'HINTS_ENABLED' | 'GRAPH_BOOST_ENABLED' | 'GRAPH_BOOST_WEIGHT' | 'RERANK_ENABLED' | 'RERANK_TOP_N'
>;

/**
 * The environment's recall settings, as overrides of a recipe: a variable that is unset leaves
 * the recipe's value (the defaults live in the settings schema, one home; the schema checks the
 * bounds). The default recipe takes them all; the others keep their own values, except that the
 * hints leg stays off in every recipe unless HINTS_ENABLED (no hints are written without it).
 */
export function recallSettingsFromEnv(env: RecallEnvironment, recipe: RecallRecipeName): RecallSettingsOverrides {
  if (recipe !== 'default') return env.HINTS_ENABLED ? {} : { legs: { hints: false } };
  return {
    legs: { hints: env.HINTS_ENABLED },
    graph: { enabled: env.GRAPH_BOOST_ENABLED, boostWeight: env.GRAPH_BOOST_WEIGHT },
    rerank: { enabled: env.RERANK_ENABLED, topN: env.RERANK_TOP_N },
  };
}
