import { describe, it, expect } from 'vitest';
import { autoTag, TAG_RULES, TAG_SCORE_THRESHOLD } from './tags.js';

const tagsOf = (text: string, source?: string) => autoTag(text, { source }).tags;

describe('autoTag (keyword and source rules)', () => {
  it('tags the seed LoginHandler example with code, error, todo and conversation', () => {
    const text =
      'In LoginHandler, I added a check for empty passwords\n(bug fix from PR #1247) using const isEmpty = pwd.length === 0.\nTODO: also validate against common patterns.';
    expect(tagsOf(text, 'conversation')).toEqual(['code', 'error', 'todo', 'conversation']);
    expect(tagsOf(text)).toEqual(['code', 'error', 'todo']);
  });

  it.each([
    ['decision', 'We decided to use Redis instead of Memcached because response times are critical.'],
    ['code', 'Fixed the handleLogin() function to validate email format.'],
    ['error', "TypeError: Cannot read property 'id' of undefined"],
    ['architecture', 'Redesigned the auth layer to separate concerns from the API gateway.'],
    ['config', 'DATABASE_URL must include ?ssl=require for production deployments.'],
    ['dependency', 'Added lodash@4.17.21 to dependencies'],
    ['dependency', 'Run npm install express before starting.'],
    ['todo', 'TODO: Add rate limiting to /api/users endpoint'],
    ['todo', '- [ ] write the migration'],
  ])('applies %s to the seed example %j', (tag, text) => {
    expect(tagsOf(text)).toContain(tag);
  });

  it('does not tag on a single weak keyword', () => {
    expect(tagsOf('I think we should probably have lunch somewhere nice after the long meeting today.')).toEqual([]);
    expect(tagsOf('The design of the house is lovely.')).toEqual([]);
    expect(tagsOf('There is an issue with the schedule.')).toEqual([]);
    expect(tagsOf('Caroline: I went to the LGBTQ support group yesterday')).toEqual([]);
  });

  it('keeps the fixed order of application', () => {
    const text = 'We decided to refactor the architecture layer. TODO: fix the TypeError in parser.ts, then npm install zod.';
    const order = TAG_RULES.map((r) => r.tag);
    const tags = tagsOf(text);
    expect(tags.length).toBeGreaterThan(3);
    expect([...tags].sort((a, b) => order.indexOf(a) - order.indexOf(b))).toEqual(tags);
  });

  it('reports every rule score, capped at 5, and applies only scores above the threshold', () => {
    const { tags, scores } = autoTag('Fixed the handleLogin() function in src/auth/login.ts; const x = a && b;');
    expect(Object.keys(scores)).toEqual(TAG_RULES.map((r) => r.tag));
    for (const [tag, score] of Object.entries(scores)) {
      expect(score).toBeGreaterThanOrEqual(0);
      expect(score).toBeLessThanOrEqual(5);
      expect(tags.includes(tag)).toBe(score > TAG_SCORE_THRESHOLD);
    }
    expect(scores.code).toBe(5);
  });

  it('adds conversation only for conversation or chat sources', () => {
    expect(tagsOf('hello there', 'chat')).toEqual(['conversation']);
    expect(tagsOf('hello there', 'slack-chat')).toEqual(['conversation']);
    expect(tagsOf('hello there', 'Conversation')).toEqual(['conversation']);
    expect(tagsOf('hello there', 'document')).toEqual([]);
    expect(tagsOf('hello there')).toEqual([]);
  });

  it('stays linear on pathological input', () => {
    for (const text of ['a.'.repeat(20_000), '1-'.repeat(30_000), 'a_'.repeat(30_000)]) {
      const t0 = performance.now();
      autoTag(text);
      expect(performance.now() - t0).toBeLessThan(500);
    }
  });

  it('accepts a custom threshold', () => {
    expect(autoTag('There is an issue.', { threshold: 0 }).tags).toEqual(['error']);
  });
});
