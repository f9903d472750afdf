import { describe, expect, it } from 'vitest';
import { applyFilters, passesFilters } from './filter.js';
import type { RecallMemory } from '../types.js';
import { recallMemory } from '../../../test/support/recall-candidates.js';

const memory = (overrides: Partial<RecallMemory> = {}): RecallMemory =>
  recallMemory('m', {
    content: 'x',
    occurredAt: '2024-03-10T12:00:00Z',
    createdAt: '2024-04-01T00:00:00Z',
    tags: ['billing', 'infra'],
    ...overrides,
  });

describe('passesFilters', () => {
  it('drops low importance, except constraints (invariant 4)', () => {
    expect(passesFilters(memory({ importance: 0.1 }), { minImportance: 0.2 })).toBe(false);
    expect(passesFilters(memory({ importance: 0.2 }), { minImportance: 0.2 })).toBe(true);
    expect(passesFilters(memory({ importance: 0.1, isConstraint: true }), { minImportance: 0.2 })).toBe(true);
  });

  it('keeps a pinned memory whatever its importance', () => {
    expect(passesFilters(memory({ importance: 0.1, pinned: true }), { minImportance: 0.9 })).toBe(true);
  });

  it('filters by type and by all tags', () => {
    expect(passesFilters(memory(), { types: ['episodic'] })).toBe(false);
    expect(passesFilters(memory(), { types: [] })).toBe(true);
    expect(passesFilters(memory(), { tags: ['billing', 'infra'] })).toBe(true);
    expect(passesFilters(memory(), { tags: ['billing', 'ui'] })).toBe(false);
  });

  it('bounds event time inclusively, falling back to record time', () => {
    expect(passesFilters(memory(), { occurredAfter: '2024-03-10T12:00:00Z', occurredBefore: '2024-03-10T12:00:00Z' })).toBe(true);
    expect(passesFilters(memory(), { occurredAfter: '2024-03-11T00:00:00Z' })).toBe(false);
    expect(passesFilters(memory({ occurredAt: null }), { occurredAfter: '2024-03-11T00:00:00Z' })).toBe(true);
    expect(passesFilters(memory({ occurredAt: null }), { occurredBefore: '2024-03-31T00:00:00Z' })).toBe(false);
  });

  it('keeps order when filtering a list', () => {
    const items = ['a', 'b', 'c'].map((id, i) => ({ candidate: memory({ memoryId: id, importance: i / 2 }) }));
    expect(applyFilters(items, { minImportance: 0.5 }).map((i) => i.candidate.memoryId)).toEqual(['b', 'c']);
  });
});
