import type { Config, RecallSettingsOverrides } from '../../config/index.js';
import type { RecallRecipeName } from './recipes.js';

export type RecallEnvironment = Pick<
  Config,
  | 'HINTS_ENABLED'
  | 'GRAPH_BOOST_ENABLED'
  | 'GRAPH_BOOST_WEIGHT'
  | 'GRAPH_BOOST_TIMEOUT_MS'
  | 'RERANK_ENABLED'
  | 'RERANK_TOP_N'
  | 'RERANK_TIMEOUT_MS'
>;

/**
 * The environment's recall settings, as overrides of a recipe. The default recipe takes them all;
 * the others keep their own values, except that the hints leg stays off in every recipe unless
 * HINTS_ENABLED (no hints are written without it).
 */
export function recallSettingsFromEnv(env: RecallEnvironment, recipe: RecallRecipeName): RecallSettingsOverrides {
  if (recipe !== 'default') return env.HINTS_ENABLED ? {} : { legs: { hints: false } };
  return {
    legs: { hints: env.HINTS_ENABLED },
    graph: { enabled: env.GRAPH_BOOST_ENABLED, boostWeight: env.GRAPH_BOOST_WEIGHT, timeoutMs: env.GRAPH_BOOST_TIMEOUT_MS },
    rerank: { enabled: env.RERANK_ENABLED, topN: env.RERANK_TOP_N, timeoutMs: env.RERANK_TIMEOUT_MS },
  };
}
