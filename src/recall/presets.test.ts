import { describe, expect, it } from 'vitest';
import { ValidationError } from '../errors.js';
import { RECALL_PRESET_NAMES, resolveRecallSettings } from './presets.js';

describe('resolveRecallSettings', () => {
  it('has the documented defaults', () => {
    const s = resolveRecallSettings();
    expect(s.legs).toEqual({ vector: true, keyword: true, hints: true, entity: true });
    expect(s.fusion).toEqual({
      method: 'zscore',
      alpha: 0.3,
      rrfK: 60,
      keywordNormalization: 'minmax',
      missingLeg: 'zero',
      entityWeight: 0.2,
    });
    expect(s.overFetchFactor).toBe(4);
    expect(s.graph).toEqual({ enabled: true, boostWeight: 0.1, timeoutMs: 500, maxEntities: 20, maxNeighbours: 50, maxMemories: 200 });
    expect(s.dampening).toEqual({
      gravity: { enabled: true, penalty: 0.5, minScore: 0.3 },
      hub: { enabled: true, percentile: 0.9, penalty: 0.7 },
      resolution: { enabled: true, boost: 1.2, minContentChars: 50 },
    });
    expect(s.recency).toEqual({ enabled: false, halfLifeDays: 30, weight: 0.3 });
    expect(s.importance).toEqual({ enabled: true, weight: 0.2 });
    expect(s.rerank).toEqual({ enabled: true, topN: 20, timeoutMs: 2000, scoreWeight: 0.7, similarityWeight: 0.3 });
    expect(s.filters).toEqual({ minImportance: 0 });
    expect(s.budget).toEqual({ tokenBudget: 2000, limit: 10, maxLimit: 100, priorityTypes: ['procedural', 'preference'] });
  });

  it('offers the benchmark baselines with every adjustment off', () => {
    expect(RECALL_PRESET_NAMES).toEqual(['default', 'vectorOnly', 'keywordOnly', 'fast']);
    for (const name of ['vectorOnly', 'keywordOnly'] as const) {
      const s = resolveRecallSettings(name);
      expect(s.graph.enabled).toBe(false);
      expect(s.rerank.enabled).toBe(false);
      expect(s.recency.enabled).toBe(false);
      expect(s.importance.enabled).toBe(false);
      expect([s.dampening.gravity.enabled, s.dampening.hub.enabled, s.dampening.resolution.enabled]).toEqual([false, false, false]);
    }
    expect(resolveRecallSettings('vectorOnly').legs).toEqual({ vector: true, keyword: false, hints: false, entity: false });
    expect(resolveRecallSettings('keywordOnly').legs).toEqual({ vector: false, keyword: true, hints: false, entity: false });
    const fast = resolveRecallSettings('fast');
    expect([fast.graph.enabled, fast.rerank.enabled, fast.dampening.gravity.enabled]).toEqual([false, false, true]);
  });

  it('deep-merges overrides without touching siblings or the preset', () => {
    const s = resolveRecallSettings('fast', {
      fusion: { method: 'rrf' },
      dampening: { hub: { penalty: 0.5 } },
      budget: { tokenBudget: null },
    });
    expect(s.fusion).toMatchObject({ method: 'rrf', alpha: 0.3, rrfK: 60 });
    expect(s.dampening.hub).toEqual({ enabled: true, percentile: 0.9, penalty: 0.5 });
    expect(s.budget.tokenBudget).toBeNull();
    expect(s.rerank.enabled).toBe(false);
    s.fusion.alpha = 0;
    (s.budget.priorityTypes as string[]).push('working');
    expect(resolveRecallSettings('fast').fusion.alpha).toBe(0.3);
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
      () => resolveRecallSettings('default', { rerank: { timeoutMs: Number.NaN } }),
      () => resolveRecallSettings('default', { graph: { enabled: 'yes' as never } }),
      () => resolveRecallSettings('default', { dampening: null as never }),
      () => resolveRecallSettings('default', { legs: { vector: false, keyword: false, hints: false } }),
    ];
    for (const run of cases) {
      expect(run).toThrow(ValidationError);
    }
    expect(() => resolveRecallSettings('default', { fusion: { alpha: 1.5 } })).toThrow(/fusion\.alpha/);
  });
});
