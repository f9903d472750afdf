import { describe, expect, it } from 'vitest';
import { collapseDuplicates, duplicateGroupsFromLinks } from './collapse-duplicates.js';

const ids = (items: Array<{ id: string }>) => items.map((i) => i.id);

describe('collapseDuplicates', () => {
  it('keeps the best-ranked member of each group, in rank order, and says what it stands for', () => {
    const ranked = ['x', 'a2', 'y', 'a1', 'b1', 'a3', 'b2'].map((id) => ({ id }));
    const groups = new Map([
      ['a1', 'a'],
      ['a2', 'a'],
      ['a3', 'a'],
      ['b1', 'b'],
      ['b2', 'b'],
    ]);
    const result = collapseDuplicates(ranked, groups, (i) => i.id);
    expect(ids(result.items)).toEqual(['x', 'a2', 'y', 'b1']);
    expect(Object.fromEntries(result.collapsed)).toEqual({ a2: ['a1', 'a3'], b1: ['b2'] });
  });

  it('changes nothing without groups', () => {
    const ranked = [{ id: 'p' }, { id: 'q' }];
    expect(collapseDuplicates(ranked, new Map(), (i) => i.id).items).toEqual(ranked);
  });
});

describe('duplicateGroupsFromLinks', () => {
  it('joins chains into one group named by its smallest id', () => {
    const groups = duplicateGroupsFromLinks([
      { a: 'm3', b: 'm2' },
      { a: 'm2', b: 'm1' },
      { a: 'n2', b: 'n1' },
    ]);
    expect(groups.get('m3')).toBe('m1');
    expect(groups.get('m2')).toBe('m1');
    expect(groups.get('n2')).toBe('n1');
    expect(groups.get('n1')).toBe('n1');
  });
});
