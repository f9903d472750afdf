import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIDENCE, MAX_ENTITY_TRIPLES, MAX_FACT_CHARS, MAX_FACTS, validateExtraction } from './validate-extraction.js';

const fact = (content: string, extra: Record<string, unknown> = {}) => ({ content, type: 'fact', confidence: 0.9, ...extra });
const triple = (source: string, relationship: string, target: string) => ({ source, relationship, target, confidence: 0.8 });

describe('validateExtraction', () => {
  it('keeps valid facts and triples untouched, without warnings', () => {
    const result = validateExtraction({
      facts: [fact('Alice uses PostgreSQL daily.', { type: 'preference' })],
      entities: [triple('Alice', 'uses', 'PostgreSQL')],
    });
    expect(result).toEqual({
      facts: [{ content: 'Alice uses PostgreSQL daily.', type: 'preference', confidence: 0.9 }],
      entities: [{ source: 'Alice', relationship: 'uses', target: 'PostgreSQL', confidence: 0.8 }],
      warnings: [],
    });
  });

  it('caps facts at 20 and rejects ones under 10 characters', () => {
    const many = Array.from({ length: 25 }, (_, i) => fact(`Fact number ${i} is long enough.`));
    const result = validateExtraction({ facts: [fact('too short'), ...many] });
    expect(result.facts).toHaveLength(MAX_FACTS - 1);
    expect(result.warnings.join('\n')).toMatch(/26 facts returned; only the first 20/);
    expect(result.warnings.join('\n')).toMatch(/fact 0: shorter than 10/);
  });

  it('truncates facts over 2000 characters and coerces unknown types to fact', () => {
    const result = validateExtraction({ facts: [fact('x'.repeat(2500), { type: 'opinion' })] });
    expect(result.facts[0]!.content).toHaveLength(MAX_FACT_CHARS);
    expect(result.facts[0]!.type).toBe('fact');
    expect(result.warnings).toEqual(
      expect.arrayContaining([expect.stringMatching(/truncated/), expect.stringMatching(/unknown type "opinion"/)]),
    );
  });

  it('clamps confidences and defaults a missing one below the write gate', () => {
    const result = validateExtraction({
      facts: [
        fact('Confidence is too high here.', { confidence: 7 }),
        fact('No confidence was given here.', { confidence: undefined }),
        fact('String confidence is accepted.', { confidence: '0.75' }),
      ],
    });
    expect(result.facts.map((f) => f.confidence)).toEqual([1, DEFAULT_CONFIDENCE, 0.75]);
    expect(result.warnings).toHaveLength(2);
  });

  it('drops bad items, keeps the good ones (partial failure)', () => {
    const result = validateExtraction({
      facts: [null, 42, { content: 7 }, fact('A good fact survives the bad ones.'), fact('A good fact survives the bad ones.')],
      entities: [triple('Alice', '', 'Bob'), { source: 'Alice' }, 'nope', triple(' Alice ', ' works  with ', 'Bob')],
    });
    expect(result.facts).toHaveLength(1);
    expect(result.entities).toEqual([{ source: 'Alice', relationship: 'works with', target: 'Bob', confidence: 0.8 }]);
    expect(result.warnings.length).toBeGreaterThanOrEqual(6);
  });

  it('caps entity triples at 50', () => {
    const result = validateExtraction({ facts: [], entities: Array.from({ length: 60 }, (_, i) => triple(`E${i}`, 'knows', `F${i}`)) });
    expect(result.entities).toHaveLength(MAX_ENTITY_TRIPLES);
  });

  it('never throws on the wrong shape', () => {
    expect(validateExtraction('garbage').warnings).toEqual(['output is not a JSON object']);
    expect(validateExtraction(null).facts).toEqual([]);
    expect(validateExtraction({ facts: 'no', entities: {} }).warnings).toEqual(['"facts" is not an array', '"entities" is not an array']);
    expect(validateExtraction([fact('A bare array of facts is read.')]).facts).toHaveLength(1);
    expect(validateExtraction({}).warnings).toEqual([]);
  });
});
