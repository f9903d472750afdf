import { describe, it, expect } from 'vitest';
import { DECISION_PATTERNS, decisionObjects, isDecisionContent, isNameLike } from './decision-patterns.js';

const matches = (id: string, text: string) => DECISION_PATTERNS.find((p) => p.id === id)!.regex.test(text);

describe('decision pattern battery (14 patterns)', () => {
  it('has the 14 patterns', () => {
    expect(DECISION_PATTERNS).toHaveLength(14);
  });

  it.each([
    ['chose', 'We chose to use Postgres over MySQL', ['Postgres', 'MySQL']],
    ['chose', 'In 2021 the team chose Redis instead of Memcached', ['Redis', 'Memcached']],
    ['decided', 'We decided against MongoDB for the ledger', ['MongoDB']],
    ['decided', 'We decided on Vitest', ['Vitest']],
    ['switched', 'Switched from Webpack to Vite last week', ['Webpack', 'Vite']],
    ['migrated', 'We migrated away from Heroku to Fly.io', ['Heroku', 'Fly.io']],
    ['picked', 'The team picked Kafka over RabbitMQ', ['Kafka', 'RabbitMQ']],
    ['went-with', 'In the end we went with Stripe.', ['Stripe']],
    ['sticking-with', "We're sticking with Jest for now", ['Jest']],
    ['committed-to', 'We committed to TypeScript for all services', ['TypeScript']],
    ['settled-on', 'We settled on Neo4j Community Edition', ['Neo4j Community Edition']],
    ['will-use', "We'll use docker for local development", ['docker']],
    ['will-use', 'The service will go with Google Cloud Run', ['Google Cloud Run']],
    ['prefers-over', 'Alice prefers Vim over Emacs', ['Vim', 'Emacs']],
    ['adopted', 'The org adopted Kubernetes in 2022', ['Kubernetes']],
    ['architecture-decision', 'Architecture decision: events are immutable', []],
    ['design-decision', 'Keeping one executor was a deliberate design decision', []],
  ])('%s: %j', (id, text, objects) => {
    expect(matches(id, text)).toBe(true);
    expect(isDecisionContent(text)).toBe(true);
    expect(decisionObjects(text)).toEqual(objects);
  });

  it.each([
    'the design of the house',
    'We use Redis for caching',
    'He switched the light off',
    'I committed to the repo yesterday',
    'She picked up the kids over the weekend',
    'The chosen one arrives tomorrow',
    'Read the migration guide first',
    'We discussed the architecture at length',
  ])('is not a decision: %j', (text) => {
    expect(isDecisionContent(text)).toBe(false);
    expect(decisionObjects(text)).toEqual([]);
  });

  it('returns the chosen and the rejected option of the brief example', () => {
    expect(decisionObjects('We decided to use Redis over Memcached for sessions')).toEqual(['Redis', 'Memcached']);
  });

  it('keeps only name-like objects and stops at a sentence end', () => {
    expect(isDecisionContent('We decided to refactor the auth layer')).toBe(true);
    expect(decisionObjects('We decided to refactor the auth layer')).toEqual([]);
    expect(decisionObjects('We went with Redis. Then Kafka came up.')).toEqual(['Redis']);
    expect(decisionObjects('Team prefers tabs over spaces')).toEqual([]);
    expect(isNameLike('the')).toBe(false);
    expect(isNameLike('Monday')).toBe(false);
    expect(isNameLike('redis')).toBe(true);
    expect(isNameLike('node.js')).toBe(true);
  });

  it('deduplicates objects across patterns', () => {
    expect(decisionObjects('We switched to Postgres and will stick with Postgres')).toEqual(['Postgres']);
  });
});
