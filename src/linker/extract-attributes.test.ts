import { describe, it, expect } from 'vitest';
import { extractAttributes, inferAspect, LINKER_MAX_ATTRIBUTE_CHARS } from './extract-attributes.js';
import { extractEntities } from './extract-entities.js';

const attributesOf = (text: string, options = {}) => extractAttributes(text, extractEntities(text), options);

describe('inferAspect', () => {
  it.each([
    ['We decided to use Redis for sessions', 'decisions'],
    ['Alice prefers short standups', 'preferences'],
    ['The worker crashed with a TypeError', 'errors'],
    ['Set REDIS_TTL in the environment', 'configuration'],
    ['The API requires zod version 3', 'dependencies'],
    ['Sessions are stored in Redis', 'usage'],
    ['Redis is quite fast', 'general'],
  ])('%j → %s', (clause, aspect) => {
    expect(inferAspect(clause)).toBe(aspect);
  });
});

describe('extractAttributes', () => {
  it('makes every attribute of a decision a constraint with importance 0.85', () => {
    const attrs = attributesOf('We decided to use Redis over Memcached for sessions');
    expect(attrs).toContainEqual({
      entityCanonicalName: 'redis',
      aspect: 'decisions',
      content: 'We decided to use Redis over Memcached for sessions',
      kind: 'constraint',
      importance: 0.85,
      confidence: 0.7,
    });
    expect(attrs.every((a) => a.kind === 'constraint' && a.importance === 0.85)).toBe(true);
  });

  it('keeps ordinary facts as attributes with importance 0.5, one per clause and entity', () => {
    const attrs = attributesOf(
      'Sessions are cached in Redis with a 1h TTL.\nThe worker crashed in src/worker/loop.ts; the fix is in PR 12.',
    );
    expect(attrs).toEqual([
      expect.objectContaining({ entityCanonicalName: 'redis', aspect: 'configuration', kind: 'attribute', importance: 0.5 }),
      expect.objectContaining({
        entityCanonicalName: 'src/worker/loop.ts',
        aspect: 'errors',
        content: 'The worker crashed in src/worker/loop.ts',
      }),
    ]);
  });

  it('only attaches attributes to strong entities', () => {
    expect(attributesOf('Caroline: I went to the LGBTQ support group yesterday')).toEqual([]);
  });

  it('caps the count and the content length', () => {
    const many = Array.from({ length: 30 }, (_, i) => `We store batch ${i} in Redis and Kafka.`).join(' ');
    expect(attributesOf(many)).toHaveLength(10);
    expect(attributesOf(many, { maxAttributes: 3 })).toHaveLength(3);
    const long = `Redis ${'holds session data '.repeat(60)}`;
    const [attr] = attributesOf(long);
    expect(attr!.content.length).toBe(LINKER_MAX_ATTRIBUTE_CHARS);
    expect(attr!.content.endsWith('…')).toBe(true);
  });

  it('deduplicates repeated clauses', () => {
    expect(attributesOf('Redis stores sessions. Redis stores sessions.')).toHaveLength(1);
  });

  it('honours an explicit isDecision flag', () => {
    const [attr] = attributesOf('Redis stores sessions.', { isDecision: true });
    expect(attr).toMatchObject({ kind: 'constraint', importance: 0.85 });
  });
});
