import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../errors.js';
import { RECALL_RECIPE_NAMES, resolveRecallSettings } from './recipes.js';

describe('resolveRecallSettings', () => {
  it('has the documented defaults', () => {
    const s = resolveRecallSettings();
    expect(s.legs).toEqual({ vector: true, keyword: true, hints: true, entity: true });
    expect(s.fusion).toEqual({
      method: 'zscore',
      alpha: 0.6,
      rrfK: 60,
      keywordNormalization: 'minmax',
      missingLeg: 'zero',
      entityWeight: 0.2,
    });
    expect(s.overFetchFactor).toBe(4);
    expect(s.graph).toEqual({ enabled: false, boostWeight: 0.1, maxEntities: 20, maxNeighbours: 50, maxMemories: 200 });
    expect(s.resolution).toEqual({ enabled: true, boost: 1.2, minContentChars: 50 });
    expect(s.importance).toEqual({ enabled: true, weight: 0.2 });
    expect(s.rerank).toEqual({ enabled: true, topN: 20, scoreWeight: 0.7, similarityWeight: 0.3 });
    expect(s.filters).toEqual({ minImportance: 0 });
    expect(s.budget).toEqual({
      tokenBudget: 2000,
      limit: 10,
      maxLimit: 100,
      priorityTypes: ['procedural', 'preference'],
      preferenceSlots: 2,
    });
  });

  it('offers the benchmark baselines with every adjustment off', () => {
    expect(RECALL_RECIPE_NAMES).toEqual(['default', 'vectorOnly', 'keywordOnly', 'fast']);
    for (const name of ['vectorOnly', 'keywordOnly'] as const) {
      const s = resolveRecallSettings(name);
      expect(s.graph.enabled).toBe(false);
      expect(s.rerank.enabled).toBe(false);
      expect(s.importance.enabled).toBe(false);
      expect(s.resolution.enabled).toBe(false);
    }
    expect(resolveRecallSettings('vectorOnly').legs).toEqual({ vector: true, keyword: false, hints: false, entity: false });
    expect(resolveRecallSettings('keywordOnly').legs).toEqual({ vector: false, keyword: true, hints: false, entity: false });
    const fast = resolveRecallSettings('fast');
    expect([fast.graph.enabled, fast.rerank.enabled, fast.resolution.enabled]).toEqual([false, false, true]);
  });

  it('deep-merges overrides without touching siblings or the preset', () => {
    const s = resolveRecallSettings('fast', {
      fusion: { method: 'rrf' },
      resolution: { boost: 1.5 },
      budget: { tokenBudget: null },
    });
    expect(s.fusion).toMatchObject({ method: 'rrf', alpha: 0.6, rrfK: 60 });
    expect(s.resolution).toEqual({ enabled: true, boost: 1.5, minContentChars: 50 });
    expect(s.budget.tokenBudget).toBeNull();
    expect(s.rerank.enabled).toBe(false);
    s.fusion.alpha = 0;
    (s.budget.priorityTypes as string[]).push('working');
    expect(resolveRecallSettings('fast').fusion.alpha).toBe(0.6);
    expect(resolveRecallSettings('fast').budget.priorityTypes).toEqual(['procedural', 'preference']);
  });

  it('rejects unknown presets, unknown keys and out-of-range values with a ValidationError', () => {
    const cases: Array<() => unknown> = [
      () => resolveRecallSettings('turbo' as never),
      () => resolveRecallSettings('default', { fusion: { alhpa: 0.5 } } as never),
      () => resolveRecallSettings('default', { fusion: { alpha: 1.5 } }),
      () => resolveRecallSettings('default', { fusion: { method: 'sum' as never } }),
      () => resolveRecallSettings('default', { budget: { limit: 101 } }),
      () => resolveRecallSettings('default', { budget: { limit: 0 } }),
      () => resolveRecallSettings('default', { rerank: { scoreWeight: Number.NaN } }),
      () => resolveRecallSettings('default', { graph: { enabled: 'yes' as never } }),
      () => resolveRecallSettings('default', { resolution: null as never }),
      () => resolveRecallSettings('default', { legs: { vector: false, keyword: false, hints: false } }),
    ];
    for (const run of cases) {
      expect(run).toThrow(ValidationError);
    }
    expect(() => resolveRecallSettings('default', { fusion: { alpha: 1.5 } })).toThrow(/fusion\.alpha/);
  });
});

describe('recipes', () => {
  const DEFAULTS = resolveRecallSettings('default');
  /** Every adjustment off, as the benchmark baselines have it. */
  const plain = {
    graph: { ...DEFAULTS.graph, enabled: false },
    resolution: { ...DEFAULTS.resolution, enabled: false },
    importance: { ...DEFAULTS.importance, enabled: false },
    time: { ...DEFAULTS.time, enabled: false },
    context: { ...DEFAULTS.context, enabled: false },
    rerank: { ...DEFAULTS.rerank, enabled: false },
  };

  it.each([
    ['default', {}],
    ['vectorOnly', { ...plain, legs: { vector: true, keyword: false, hints: false, entity: false } }],
    ['keywordOnly', { ...plain, legs: { vector: false, keyword: true, hints: false, entity: false } }],
    [
      'fast',
      {
        legs: { ...DEFAULTS.legs, entity: false },
        graph: { ...DEFAULTS.graph, enabled: false },
        rerank: { ...DEFAULTS.rerank, enabled: false },
      },
    ],
  ] as const)('%s: the defaults with exactly its own changes', (name, changes) => {
    expect(resolveRecallSettings(name)).toEqual({ ...DEFAULTS, ...changes });
  });

  it('lets later layers win and leaves a value given as undefined as it was', () => {
    const s = resolveRecallSettings(
      'fast',
      { graph: { enabled: true, boostWeight: 0.2 } },
      { graph: { boostWeight: 0.3 }, legs: { entity: undefined } },
    );
    expect(s.graph).toMatchObject({ enabled: true, boostWeight: 0.3, maxEntities: 20 });
    expect(s.legs.entity).toBe(false);
  });

  it('names the field, the bound and the value of a refusal', () => {
    const refusal = (run: () => unknown) => {
      try {
        run();
      } catch (error) {
        return error as ValidationError;
      }
      throw new Error('not refused');
    };
    const alpha = refusal(() => resolveRecallSettings('default', { fusion: { alpha: 1.5 } }));
    expect(alpha).toBeInstanceOf(ValidationError);
    expect(alpha.code).toBe('BAD_USER_INPUT');
    expect(alpha.message).toBe('recall setting fusion.alpha must be in [0, 1] (got 1.5)');
    expect(alpha.details).toEqual({ path: 'fusion.alpha', value: 1.5 });
    expect(refusal(() => resolveRecallSettings('default', { budget: { limit: 101 } })).message).toBe(
      'recall setting budget.limit must be an integer in [1, 100] (got 101)',
    );
    expect(refusal(() => resolveRecallSettings('default', { fusion: { alhpa: 0.5 } } as never)).message).toBe(
      'unknown recall setting fusion.alhpa',
    );
    expect(refusal(() => resolveRecallSettings('turbo' as never)).details).toEqual({ recipe: 'turbo', known: RECALL_RECIPE_NAMES });
    expect(refusal(() => resolveRecallSettings('default', { legs: { vector: false, keyword: false, hints: false } })).message).toBe(
      'recall needs at least one leg (legs.vector, legs.keyword or legs.hints)',
    );
  });
});
