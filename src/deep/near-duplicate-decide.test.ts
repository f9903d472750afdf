import { describe, expect, it } from 'vitest';
import { nearDuplicatePrompt, NEAR_DUPLICATE_PROMPT_HEADER, validateNearDuplicateDecision } from './near-duplicate-decide.js';

describe('near-duplicate decision validation', () => {
  it('accepts the three actions, normalizing their spelling, and clamps confidence', () => {
    expect(validateNearDuplicateDecision({ action: 'Keep-Both', merged: '', confidence: 3, reason: 'different' }).decision).toEqual({
      action: 'keep_both',
      merged: null,
      confidence: 1,
      reason: 'different',
    });
    expect(
      validateNearDuplicateDecision({ action: 'replace', merged: 'ignored', confidence: 0.8, reason: 'newer is complete' }).decision
        ?.merged,
    ).toBeNull();
    expect(validateNearDuplicateDecision({ action: 'merge', merged: ' A and B ', confidence: 0.9, reason: 'both' }).decision?.merged).toBe(
      'A and B',
    );
  });

  it('refuses unknown actions, a merge without text and a missing reason', () => {
    expect(validateNearDuplicateDecision({ action: 'delete', merged: '', confidence: 1, reason: 'x' }).decision).toBeNull();
    expect(validateNearDuplicateDecision({ action: 'merge', merged: '  ', confidence: 1, reason: 'x' }).warning).toMatch(/merged text/);
    expect(validateNearDuplicateDecision({ action: 'replace', merged: '', confidence: 1, reason: '' }).decision).toBeNull();
    expect(validateNearDuplicateDecision('merge').decision).toBeNull();
  });

  it('prompt opens with its header and fences both texts', () => {
    const prompt = nearDuplicatePrompt('old text', 'new text');
    expect(prompt.startsWith(NEAR_DUPLICATE_PROMPT_HEADER)).toBe(true);
    expect(prompt).toContain('"""old text"""');
    expect(prompt).toContain('"""new text"""');
  });
});
