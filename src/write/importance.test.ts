import { describe, it, expect } from 'vitest';
import { ValidationError } from '../errors.js';
import { classifyMemoryType, importanceScore, MEMORY_TYPES, noveltyScore, salienceScore } from './importance.js';

describe('salienceScore', () => {
  it('scores each signal once and caps at 1', () => {
    expect(salienceScore('the weather was nice')).toBe(0);
    expect(salienceScore('we met with Caroline')).toBe(0.3);
    expect(salienceScore('it took 3 attempts')).toBe(0.2);
    expect(salienceScore('I prefer short answers')).toBe(0.4);
    expect(salienceScore('the handleLogin path is slow')).toBe(0.1);
    expect(salienceScore('I prefer to meet Caroline on Monday about handleLogin()')).toBe(1);
  });

  it('does not count sentence-initial capitals, "I" or month names as named entities', () => {
    expect(salienceScore('The cat sat. It slept. I woke up')).toBe(0);
    expect(salienceScore('we leave in March')).toBe(0.2);
    expect(salienceScore('Caroline: I went to the LGBTQ support group yesterday')).toBeCloseTo(0.6);
  });

  it('stays fast on large input', () => {
    const text = 'We met Alice and Bob at Acme. '.repeat(4000);
    const t0 = performance.now();
    expect(salienceScore(text)).toBe(0.3);
    expect(performance.now() - t0).toBeLessThan(500);
  });
});

describe('noveltyScore and importanceScore', () => {
  it('is 1 when there is nothing to compare with, else 1 − similarity clamped', () => {
    expect(noveltyScore(null)).toBe(1);
    expect(noveltyScore(0.25)).toBe(0.75);
    expect(noveltyScore(1)).toBe(0);
    expect(noveltyScore(1.2)).toBe(0);
    expect(noveltyScore(-0.5)).toBe(1);
    expect(() => noveltyScore(Number.NaN)).toThrow(ValidationError);
  });

  it('weights novelty 0.6 and salience 0.4, clamped and rounded to 3 decimals', () => {
    expect(importanceScore({ novelty: 1, salience: 0 })).toBe(0.6);
    expect(importanceScore({ novelty: 0, salience: 1 })).toBe(0.4);
    expect(importanceScore({ novelty: 0.333333, salience: 0.777777 })).toBe(0.511);
    expect(importanceScore({ novelty: 2, salience: 2 })).toBe(1);
    expect(importanceScore({ novelty: -1, salience: -1 })).toBe(0);
    expect(importanceScore({ novelty: 0.5, salience: 0.5 }, { noveltyWeight: 1, salienceWeight: 0 })).toBe(0.5);
    expect(() => importanceScore({ novelty: Number.NaN, salience: 0 })).toThrow(ValidationError);
  });
});

describe('classifyMemoryType (first matching rule wins)', () => {
  it('lets a valid hint win and rejects an unknown one', () => {
    expect(classifyMemoryType('I prefer tabs', 'fact')).toBe('fact');
    for (const t of MEMORY_TYPES) expect(classifyMemoryType('anything', t)).toBe(t);
    expect(() => classifyMemoryType('x', 'gossip')).toThrow(ValidationError);
  });

  it.each([
    ['I prefer dark mode in every editor', 'procedural'],
    ['My favorite database is Postgres', 'procedural'],
    ['We always squash commits before merging', 'procedural'],
    ['I am currently debugging the login flow', 'working'],
    ['In this session we focus on recall', 'working'],
    ['Right now the build is red', 'working'],
    ['We decided to use Redis over Memcached for sessions', 'decision'],
    ['Switched from MySQL to Postgres last year', 'decision'],
    ['Postgres is the primary database', 'semantic'],
    ['The API listens on port 8080.', 'semantic'],
    ['Alice works at Acme Corp', 'semantic'],
    ['Caroline: I went to the LGBTQ support group yesterday', 'episodic'],
    ['The meeting is at 3pm tomorrow', 'episodic'],
    ['It is raining', 'episodic'],
    ['Postgres is fast. It also has great JSON support.', 'episodic'],
    ['From now on use pnpm', 'episodic'],
  ])('%j → %s', (text, type) => {
    expect(classifyMemoryType(text)).toBe(type);
  });
});
