import { describe, it, expect } from 'vitest';
import { extractEntities, isOpaque, type ExtractedEntity } from './extract-entities.js';

const byName = (entities: ExtractedEntity[]) => Object.fromEntries(entities.map((e) => [e.canonicalName, e]));
const names = (text: string) => extractEntities(text).map((e) => e.canonicalName);

describe('extractEntities: strong signals', () => {
  it('finds known technologies as strong tools, merging aliases', () => {
    const e = byName(extractEntities('We run postgres and Redis; PostgreSQL holds the ledger, redis the sessions.'));
    expect(Object.keys(e)).toEqual(['postgresql', 'redis']);
    expect(e.postgresql).toMatchObject({
      name: 'PostgreSQL',
      type: 'tool',
      strength: 'strong',
      mentionText: 'postgres',
      signal: 'known-tech',
    });
    expect(e.redis).toMatchObject({ name: 'Redis', canonicalName: 'redis', type: 'tool', strength: 'strong' });
  });

  it('matches ambiguous technology words only when capitalised', () => {
    expect(names('Teams react quickly and rust never sleeps')).toEqual([]);
    expect(names('We build the UI in React and the CLI in Rust')).toEqual(['react', 'rust']);
  });

  it('finds files and code identifiers', () => {
    const e = byName(extractEntities('Fixed handleLogin() in src/auth/login.ts'));
    expect(e.handlelogin).toMatchObject({
      name: 'handleLogin',
      type: 'system',
      strength: 'strong',
      signal: 'identifier',
      mentionText: 'handleLogin()',
    });
    expect(e['src/auth/login.ts']).toMatchObject({ name: 'src/auth/login.ts', type: 'system', strength: 'strong', signal: 'file' });
  });

  it('finds CamelCase classes, snake_case calls, backticked names and dotfiles', () => {
    const e = byName(extractEntities('The LoginHandler calls parse_config(path); `retryCount` lives in .env and docker-compose.yml'));
    expect(e.loginhandler?.signal).toBe('identifier');
    expect(e.parse_config?.signal).toBe('identifier');
    expect(e.retrycount?.signal).toBe('identifier');
    expect(e['.env']?.signal).toBe('file');
    expect(e['docker-compose.yml']?.signal).toBe('file');
  });

  it('does not take prose parentheses for calls', () => {
    expect(names('Send the file(s) to the team (see notes)')).toEqual([]);
  });

  it('finds packages from install commands and name@version', () => {
    const e = byName(
      extractEntities('Run npm install -D zod @types/node before starting. Added lodash@4.17.21; pip install requests[socks]==2.31'),
    );
    expect(Object.keys(e)).toEqual(['zod', '@types/node', 'lodash', 'requests']);
    for (const x of Object.values(e)) expect(x).toMatchObject({ type: 'tool', strength: 'strong', signal: 'package' });
  });

  it('names URLs by domain and keeps @handles', () => {
    const e = byName(extractEntities('Docs at https://www.example.com/docs?x=1, ask @alice-dev (not user@example.org).'));
    expect(e['example.com']).toMatchObject({ type: 'system', strength: 'strong', mentionText: 'https://www.example.com/docs?x=1' });
    expect(e['@alice-dev']).toMatchObject({ type: 'person', strength: 'strong', signal: 'handle' });
    expect(Object.keys(e)).toHaveLength(2);
  });

  it('makes decision objects strong even when unknown', () => {
    const e = byName(extractEntities('We went with Acmebase over Fooly for billing'));
    expect(e.acmebase).toMatchObject({ type: 'unknown', strength: 'strong', signal: 'decision-object' });
    expect(e.fooly?.strength).toBe('strong');
  });

  it('ignores redaction placeholders', () => {
    expect(names('password=[PASSWORD], mail [EMAIL], key [AWS_ACCESS_KEY]')).toEqual([]);
  });
});

describe('extractEntities: weak signals and junk', () => {
  it('makes a chat speaker a strong person, keeps other names weak, and rejects pronouns and dates', () => {
    const entities = extractEntities('Caroline: I went to the LGBTQ support group yesterday');
    const e = byName(entities);
    expect(e.caroline).toMatchObject({ name: 'Caroline', type: 'person', strength: 'strong' });
    expect(e.lgbtq?.strength).toBe('weak');
    expect(Object.keys(e)).toEqual(['caroline', 'lgbtq']);
  });

  it('accepts a sentence-initial name only before a verb or as a possessive', () => {
    expect(names('Melanie went home. Melanie’s dog barked.')).toEqual(['melanie']);
    expect(names('Yesterday was long. Monday we rest. The team met. This works. We agree. I know.')).toEqual([]);
    expect(names('Birds sing at dawn.')).toEqual([]);
  });

  it('reads capitalised names inside sentences, keeping multi-word names whole', () => {
    // The weak rule alone (the recognizer and the named-thing rules make these strong).
    const text = 'We flew to New York with Bob Smith and met the Acme Corp team near Central Park in March.';
    const entities = extractEntities(text, { namedEntities: false, namedThings: false });
    expect(entities.map((e) => e.name)).toEqual(['New York', 'Bob Smith', 'Acme Corp', 'Central Park']);
    for (const e of entities) expect(e.strength).toBe('weak');
    // Mid-sentence capitalised names create entities; a noun that types one types it.
    const strong = extractEntities(text, { namedEntities: false });
    expect(strong.map((e) => [e.name, e.type, e.strength])).toEqual([
      ['New York', 'unknown', 'strong'],
      ['Bob Smith', 'unknown', 'strong'],
      ['Acme Corp', 'organization', 'strong'],
      ['Central Park', 'unknown', 'strong'],
    ]);
  });

  it('does not read parts of paths, URLs or code as names', () => {
    expect(names('Edit src/Auth/Login.ts and see https://Example.com/Path')).toEqual(['src/auth/login.ts', 'example.com']);
  });
});

describe('extractEntities: shape', () => {
  it('dedupes by canonical name keeping the strongest signal', () => {
    const e = extractEntities('Redis is fast. We decided to use redis over Memcached. REDIS rocks.');
    expect(e.filter((x) => x.canonicalName === 'redis')).toHaveLength(1);
    expect(byName(e).redis).toMatchObject({ signal: 'known-tech', confidence: 0.9 });
  });

  it('canonicalises to lowercase with collapsed whitespace', () => {
    for (const e of extractEntities('We met Anna Maria Lopez at Big  Data Corp with GitHub folks.')) {
      expect(e.canonicalName).toBe(e.name.trim().replace(/\s+/g, ' ').toLowerCase());
    }
  });

  it('caps the number of entities, keeping strong ones first', () => {
    const text = Array.from({ length: 40 }, (_, i) => `file${i}.ts and Person${String.fromCharCode(65 + (i % 26))}x`).join(', ');
    const entities = extractEntities(text, { maxEntities: 30 });
    expect(entities).toHaveLength(30);
    expect(entities.every((e) => e.strength === 'strong')).toBe(true);
  });

  it('handles a 2,000-character memory', () => {
    const text = 'We decided to use Redis over Memcached. Fixed handleLogin() in src/auth/login.ts. Caroline went to Paris with Bob. '
      .repeat(18)
      .slice(0, 2000);
    const entities = extractEntities(text);
    expect(entities.length).toBeGreaterThan(4);
  });
});

describe('extractEntities: generated blobs name nothing', () => {
  const SHA384 = 'oqVuAfXRKap7fdgcCY5uykM6+R9GqQ8K/uxy9rx7HNQlGYl1kPzQho1wx4JwY8wC';
  const JWT = 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIn0';

  it('takes no piece of a digest, token or key for a name, and keeps the names around it', () => {
    const sri = names(`Pinned Bootstrap with integrity="sha384-${SHA384}" from https://cdn.jsdelivr.net today.`);
    expect(sri).toContain('cdn.jsdelivr.net');
    expect(sri.filter((n) => SHA384.toLowerCase().includes(n))).toEqual([]);
    const jwt = names(`Ravi said the session token ${JWT} expired before Orion retried.`);
    expect(jwt.some((n) => n.startsWith('eyj') || JWT.toLowerCase().includes(n))).toBe(false);
    expect(jwt).toContain('ravi');
    const key = names('Rotate the key AbX9kQ2mZ7pL4wR8tY3nV6cH1sD5fG0j used by Billing.');
    expect(key.filter((n) => /\d/.test(n))).toEqual([]);
  });

  it('keeps identifiers, paths and versioned names, whose letters come in words', () => {
    const e = names(
      'Moved UserProfile2 to src/components/UserProfile2/Avatar3.tsx and HTTP2Client into lib64; HelloWorldExample2024Release ships.',
    );
    expect(e).toEqual(expect.arrayContaining(['userprofile2', 'src/components/userprofile2/avatar3.tsx', 'helloworldexample2024release']));
  });

  it('tells a generated run from a written one', () => {
    for (const run of [SHA384, 'R9GqQ8K/uxy9rx7HNQlGYl1k', 'gAAAAABk3x9Y2cQv_Lm8pN0aZ-x7Qw', 'Qm1uZXQtYXV0aC10b2tlbi0yMDI0'])
      expect(isOpaque(run), run).toBe(true);
    for (const run of [
      'src/components/UserProfile2/Avatar3',
      'packages/server-v2/src/ApolloServer',
      'lib/HTTP2Client/Http2SessionPool',
      'AbstractSingletonProxyFactoryBean',
      'x86_64-unknown-linux-gnu/lib64',
      '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08',
    ])
      expect(isOpaque(run), run).toBe(false);
  });
});
