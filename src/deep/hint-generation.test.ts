import { describe, expect, it } from 'vitest';
import { validateHints } from './hint-generation.js';

describe('validateHints', () => {
  it('keeps at most max distinct questions', () => {
    const raw = {
      questions: [
        'Which database does billing use?',
        'which database does billing use?',
        'Who owns the billing service?',
        'x',
        'What is Alice working on?',
        'When did billing migrate?',
        'Why PostgreSQL?',
        'Extra question beyond the cap?',
      ],
    };
    const result = validateHints(raw, 5);
    expect(result.hints).toEqual([
      'Which database does billing use?',
      'Who owns the billing service?',
      'What is Alice working on?',
      'When did billing migrate?',
      'Why PostgreSQL?',
    ]);
    expect(result.warnings.join(' ')).toMatch(/too short/);
  });

  it('accepts a bare array or a "hints" key, and warns on the wrong shape', () => {
    expect(validateHints(['Is the cache enabled in prod?'], 5).hints).toHaveLength(1);
    expect(validateHints({ hints: ['Is the cache enabled in prod?'] }, 5).hints).toHaveLength(1);
    expect(validateHints({ answer: 'no' }, 5)).toEqual({ hints: [], warnings: ['hints output has no "questions" array'] });
  });
});
