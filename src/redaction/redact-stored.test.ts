import { describe, expect, it } from 'vitest';

import { validateDecision } from '../deep/validate-decision.js';
import { validateExtraction } from '../deep/validate-extraction.js';
import { validateHints } from '../deep/hint-generation.js';
import {
  configureStoredRedaction,
  RedactionTally,
  redactJsonString,
  redactJsonValue,
  redactStored,
  redactStoredOrNull,
} from './redact-stored.js';

const TOKEN = `ghp_${'Ab1'.repeat(12)}`;

describe('redactStored', () => {
  it('masks and never refuses: an announced secret without a value is left as it is', () => {
    expect(redactStored(`token ${TOKEN}`)).toBe('token [GITHUB_TOKEN]');
    expect(redactStored('my password is')).toBe('my password is');
    expect(redactStoredOrNull(null)).toBeNull();
  });

  it('redacts every key and string leaf of JSON, keeping other values and the shape', () => {
    const tally = new RedactionTally();
    const value = redactJsonValue({ [TOKEN]: 1, nested: { list: [`x ${TOKEN}`, 2, null, false], ok: 'plain' } }, {}, tally);
    expect(value).toEqual({ '[GITHUB_TOKEN]': 1, nested: { list: ['x [GITHUB_TOKEN]', 2, null, false], ok: 'plain' } });
    expect(tally.list()).toEqual([{ kind: 'GITHUB_TOKEN', count: 2 }]);
    expect(redactJsonString(JSON.stringify({ a: `password=${'Zz9'.repeat(3)}` }))).toBe('{"a":"password=[PASSWORD]"}');
    expect(redactJsonString(null)).toBeNull();
  });

  it('masks whole every value under a secret-named key, at any depth, whatever it looks like (#24)', () => {
    const tally = new RedactionTally();
    const value = redactJsonValue(
      {
        db_password: 'Vq7Lm2Np9Rs4',
        apiKey: 'purple monkey',
        token: 'x',
        service: { deploy: { user: 'ci', 'client-secret': 'orbitviolet', pin: 4451 } },
        auth: { user: 'ci', port: 443 },
        tokens: ['abc', 'def'],
        usage: { prompt_tokens: 12, max_tokens: 512 },
        password_min_length: 12,
        note: 'plain',
      },
      {},
      tally,
    );
    expect(value).toEqual({
      db_password: '[PASSWORD]',
      apiKey: '[API_KEY]',
      token: '[TOKEN]',
      service: { deploy: { user: 'ci', 'client-secret': '[SECRET]', pin: '[PIN]' } },
      auth: { user: '[SECRET]', port: '[SECRET]' },
      tokens: ['[TOKEN]', '[TOKEN]'],
      usage: { prompt_tokens: 12, max_tokens: 512 },
      password_min_length: 12,
      note: 'plain',
    });
    expect(tally.list()).toEqual([
      { kind: 'PASSWORD', count: 1 },
      { kind: 'API_KEY', count: 1 },
      { kind: 'TOKEN', count: 3 },
      { kind: 'SECRET', count: 3 },
      { kind: 'PIN', count: 1 },
    ]);
    expect(redactJsonString(JSON.stringify({ credentials: { user: 'bob', password: 'hunter2' } }))).toBe(
      '{"credentials":{"user":"[SECRET]","password":"[SECRET]"}}',
    );
    expect(redactJsonValue({ password: 'hunter22' }, { enabled: false })).toEqual({ password: 'hunter22' });
  });

  it('masks connection strings, env lines and URL tokens in short fields (#24)', () => {
    expect(redactStored('postgres://app:Vq7Lm2@db.internal:5432/main')).toBe('[DATABASE_URI]');
    expect(redactStored('REDIS_PASSWORD=Tr0ub4dor&3')).toBe('REDIS_PASSWORD=[PASSWORD]');
    expect(redactStored('https://api.example.com/v1/export?token=orbitviolet&format=csv')).toBe(
      'https://api.example.com/v1/export?token=[TOKEN]&format=csv',
    );
  });

  it('uses the configured settings, and refuses a bad extra pattern at configuration', () => {
    try {
      configureStoredRedaction({ extraPatterns: [{ kind: 'EMPLOYEE_ID', pattern: 'EMP-\\d{6}' }] });
      expect(redactStored('badge EMP-123456')).toBe('badge [EMPLOYEE_ID]');
      configureStoredRedaction({ enabled: false });
      expect(redactStored(`token ${TOKEN}`)).toBe(`token ${TOKEN}`);
      expect(() => configureStoredRedaction({ extraPatterns: [{ kind: 'BAD', pattern: '(' }] })).toThrow(/not a valid regular expression/);
    } finally {
      configureStoredRedaction({});
    }
  });
});

describe('model output is redacted where it is validated', () => {
  it('extracted facts, entity names and relationships', () => {
    const result = validateExtraction({
      facts: [{ content: `The deploy bot uses ${TOKEN} for releases.`, type: 'fact', confidence: 0.9 }],
      entities: [{ source: `bot ${TOKEN}`, relationship: `authenticates with ${TOKEN}`, target: 'GitHub', confidence: 0.9 }],
    });
    expect(JSON.stringify(result)).not.toContain(TOKEN);
    expect(result.facts[0]!.content).toBe('The deploy bot uses [GITHUB_TOKEN] for releases.');
  });

  it('redacts a fact before cutting it, so no piece of a secret survives the cut', () => {
    const long = `${'word '.repeat(396)}x ${TOKEN}`;
    const [fact] = validateExtraction({ facts: [{ content: long, type: 'fact', confidence: 0.9 }] }).facts;
    expect(fact!.content).not.toContain('ghp_');
  });

  it('decision reasons and hints', () => {
    const { decision } = validateDecision({ action: 'ADD', targetId: null, confidence: 0.9, reason: `saw ${TOKEN}` }, []);
    expect(decision!.reason).toBe('saw [GITHUB_TOKEN]');
    expect(validateHints({ questions: [`Which token is ${TOKEN}?`] }, 5).hints).toEqual(['Which token is [GITHUB_TOKEN]?']);
  });
});
