import { describe, expect, it, vi } from 'vitest';
import type { LlmProvider } from '../llm/provider.js';
import { decide, NO_CANDIDATES_REASON } from './decide.js';
import type { Candidate } from './extraction-types.js';
import { validateDecision } from './validate-decision.js';

const candidates: Candidate[] = [
  { id: 'mem-1', type: 'fact', content: 'Alice uses MySQL.', score: 0.9 },
  { id: 'mem-2', type: 'fact', content: 'Bob likes tea.', score: 0.4 },
];
const fact = { content: 'Alice uses PostgreSQL now.', type: 'fact' as const, confidence: 0.8 };

describe('validateDecision', () => {
  it('accepts UPDATE and DELETE only with a candidate id', () => {
    expect(
      validateDecision({ action: 'update', targetId: 'mem-1', confidence: 0.9, reason: 'newer database' }, candidates).decision,
    ).toEqual({
      action: 'UPDATE',
      targetId: 'mem-1',
      confidence: 0.9,
      reason: 'newer database',
      byModel: true,
    });
    const hallucinated = validateDecision({ action: 'DELETE', targetId: 'mem-9', confidence: 0.9, reason: 'obsolete' }, candidates);
    expect(hallucinated.decision).toBeNull();
    expect(hallucinated.warnings[0]).toMatch(/not a candidate/);
    expect(validateDecision({ action: 'UPDATE', confidence: 0.9, reason: 'x' }, candidates).decision).toBeNull();
  });

  it('rejects an empty reason and unknown actions', () => {
    expect(validateDecision({ action: 'ADD', confidence: 0.9, reason: '  ' }, candidates).warnings[0]).toMatch(/empty reason/);
    expect(validateDecision({ action: 'MERGE', reason: 'x' }, candidates).warnings[0]).toMatch(/unknown decision action/);
    expect(validateDecision('ADD', candidates).decision).toBeNull();
  });

  it('ignores a targetId on ADD and NONE', () => {
    expect(
      validateDecision({ action: 'NONE', targetId: 'mem-1', confidence: 1, reason: 'known' }, candidates).decision?.targetId,
    ).toBeNull();
  });
});

describe('decide', () => {
  it('proposes ADD without a model call when there are no candidates', async () => {
    const generate = vi.fn();
    const provider: LlmProvider = { model: 'm', generate, available: async () => true };
    const result = await decide(provider, fact, [], { timeoutMs: 1000 });
    expect(result.decision).toMatchObject({ action: 'ADD', confidence: 0.8, reason: NO_CANDIDATES_REASON, byModel: false });
    expect(generate).not.toHaveBeenCalled();
  });

  it('turns unusable output into a warning, not an error', async () => {
    const provider: LlmProvider = { model: 'm', generate: async () => 'no idea', available: async () => true };
    const result = await decide(provider, fact, candidates, { timeoutMs: 1000 });
    expect(result.decision).toBeNull();
    expect(result.warnings[0]).toMatch(/unusable/);
  });

  it('lets transport failures through so the job is retried', async () => {
    const provider: LlmProvider = {
      model: 'm',
      generate: async () => {
        throw new Error('socket hang up');
      },
      available: async () => false,
    };
    await expect(decide(provider, fact, candidates, { timeoutMs: 1000 })).rejects.toThrow('socket hang up');
  });
});
