import { describe, expect, it } from 'vitest';
import { classifyPrompt, CLASSIFY_PROMPT_HEADER, classifySchema, validateClassification } from './structural-classify.js';

const input = {
  entityName: 'Orion',
  entityType: 'extracted',
  existingAspects: ['Deadlines'],
  attributes: [{ content: 'Orion ships in March.' }, { content: 'Orion must not use MongoDB.' }],
};

describe('structural classification', () => {
  it('keeps valid assignments, marks new aspects, infers a type only for an untyped entity', () => {
    const result = validateClassification(
      {
        entityType: 'Project',
        assignments: [
          { i: 0, aspect: ' deadlines ', kind: 'attribute', new: true },
          { i: 1, aspect: 'Tech  stack', kind: 'constraint', new: false },
        ],
      },
      input,
    );
    expect(result.assignments).toEqual([
      { i: 0, aspect: 'deadlines', aspectCanonicalName: 'deadlines', kind: 'attribute', isNew: false },
      { i: 1, aspect: 'Tech stack', aspectCanonicalName: 'tech stack', kind: 'constraint', isNew: true },
    ]);
    expect(result.entityType).toBe('project');
    expect(validateClassification({ entityType: 'person', assignments: [] }, { ...input, entityType: 'project' }).entityType).toBeNull();
    expect(validateClassification({ entityType: 'planet', assignments: [] }, input).entityType).toBeNull();
  });

  it('drops out-of-range, repeated and empty assignments with warnings', () => {
    const result = validateClassification(
      {
        entityType: 'unknown',
        assignments: [
          { i: 5, aspect: 'x', kind: 'attribute' },
          { i: 0, aspect: 'a', kind: 'attribute' },
          { i: 0, aspect: 'b', kind: 'attribute' },
          { i: 1, aspect: ' ', kind: 'attribute' },
        ],
      },
      input,
    );
    expect(result.assignments.map((a) => a.aspect)).toEqual(['a']);
    expect(result.warnings).toHaveLength(3);
    expect(result.entityType).toBeNull();
  });

  it('prompt lists the facts by number and the suggestions; schema bounds i by the batch', () => {
    const prompt = classifyPrompt(input);
    expect(prompt.startsWith(CLASSIFY_PROMPT_HEADER)).toBe(true);
    expect(prompt).toContain('0. Orion ships in March.');
    expect(prompt).toContain('1. Orion must not use MongoDB.');
    expect(prompt).toContain('Suggested aspects for this type: facts, preferences, decisions');
    const props = classifySchema(2).properties as { assignments: { items: { properties: { i: { maximum: number } } } } };
    expect(props.assignments.items.properties.i.maximum).toBe(1);
  });
});
