import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../config/index.js';
import { recallSettingsFromEnv } from './env.js';
import { RECALL_RECIPE_NAMES, resolveRecallSettings, type RecallRecipeName } from './recipes.js';

/** What RecallService.settingsFor resolves for a recipe under this environment. */
function settingsUnder(env: Record<string, string>, recipe: RecallRecipeName) {
  return resolveRecallSettings(recipe, recallSettingsFromEnv(loadConfig(env), recipe));
}

describe('recallSettingsFromEnv', () => {
  it('maps the environment onto the default recipe', () => {
    expect(
      recallSettingsFromEnv(
        loadConfig({
          HINTS_ENABLED: 'true',
          GRAPH_BOOST_WEIGHT: '0.25',
          RERANK_ENABLED: 'false',
          RERANK_TOP_N: '7',
        }),
        'default',
      ),
    ).toEqual({
      legs: { hints: true },
      graph: { enabled: undefined, boostWeight: 0.25 },
      rerank: { enabled: false, topN: 7 },
    });
    const s = settingsUnder({ GRAPH_BOOST_ENABLED: 'true' }, 'default');
    expect([s.graph.enabled, s.graph.boostWeight, s.rerank.enabled, s.rerank.topN]).toEqual([true, 0.1, true, 20]);
  });

  it('leaves the settings schema its defaults when a variable is unset, and its bounds to refuse', () => {
    expect(settingsUnder({}, 'default')).toEqual(resolveRecallSettings('default', { legs: { hints: false } }));
    expect(() => loadConfig({ GRAPH_BOOST_WEIGHT: '1.5' })).toThrow(/GRAPH_BOOST_WEIGHT/);
    expect(() => loadConfig({ RERANK_TOP_N: '0' })).toThrow(/RERANK_TOP_N/);
  });

  it('keeps the hints leg off in every recipe unless HINTS_ENABLED', () => {
    for (const recipe of RECALL_RECIPE_NAMES) expect(settingsUnder({}, recipe).legs.hints, recipe).toBe(false);
    expect(settingsUnder({ HINTS_ENABLED: 'true' }, 'default').legs.hints).toBe(true);
    expect(settingsUnder({ HINTS_ENABLED: 'true' }, 'fast').legs.hints).toBe(true);
    expect(settingsUnder({ HINTS_ENABLED: 'true' }, 'vectorOnly').legs.hints).toBe(false);
  });

  it('leaves the other recipes their own values', () => {
    const env = {
      GRAPH_BOOST_ENABLED: 'true',
      GRAPH_BOOST_WEIGHT: '0.5',
      RERANK_ENABLED: 'true',
      RERANK_TOP_N: '3',
      HINTS_ENABLED: 'true',
    };
    for (const recipe of ['vectorOnly', 'keywordOnly', 'fast'] as const) {
      expect(settingsUnder(env, recipe), recipe).toEqual(resolveRecallSettings(recipe));
    }
  });

  it('then a request overrides both', () => {
    const s = resolveRecallSettings('default', recallSettingsFromEnv(loadConfig({ GRAPH_BOOST_WEIGHT: '0.5' }), 'default'), {
      graph: { boostWeight: 0.05 },
      legs: { hints: true },
    });
    expect([s.graph.boostWeight, s.legs.hints]).toEqual([0.05, true]);
  });
});
