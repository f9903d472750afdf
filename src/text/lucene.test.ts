import { describe, expect, it } from 'vitest';
import { escapeLuceneTerm, MAX_LUCENE_TERMS, queryTokens, STOP_WORDS, toLuceneQuery } from './lucene.js';

const SPECIALS = ['+', '-', '&&', '||', '!', '(', ')', '{', '}', '[', ']', '^', '"', '~', '*', '?', ':', '\\', '/'];

function unescape(term: string): string {
  return term.replace(/\\(.)/g, '$1');
}

describe('toLuceneQuery', () => {
  it('turns a question into its meaningful words, OR-ed', () => {
    expect(toLuceneQuery(`what's "foo" (bar)?`)).toBe('foo OR bar');
    expect(toLuceneQuery('Which database does the billing service use?')).toBe('database OR billing OR service OR use');
  });

  it('returns null when only symbols, stop words or single letters are left', () => {
    for (const text of ['C++', '***', ':', '', '   ', '🎉👍', 'a AND b', 'NOT', 'what is it?', '"" () [] {}', '\\', '&& || !']) {
      expect(toLuceneQuery(text), JSON.stringify(text)).toBeNull();
    }
  });

  it('never passes a boolean operator through', () => {
    expect(toLuceneQuery('cats AND dogs OR birds NOT fish')).toBe('cats OR dogs OR birds OR fish');
    expect(toLuceneQuery('ANDROID ORACLE NOTES')).toBe('android OR oracle OR notes');
  });

  it('keeps tokens Lucene keeps whole (file.ts, foo:bar) and escapes what the syntax needs', () => {
    expect(toLuceneQuery('path/to/file.ts')).toBe('path OR file.ts');
    expect(toLuceneQuery('foo:bar')).toBe('foo\\:bar');
    expect(toLuceneQuery('release v1.2 costs 1,000 dollars.')).toBe('release OR v1.2 OR costs OR 1,000 OR dollars');
    expect(toLuceneQuery('snake_case_name')).toBe('snake_case_name');
  });

  it('leaves no unescaped special character in any query', () => {
    const nasty = `${SPECIALS.join(' x')} title:(a OR b) +must -not "phrase~2" fo*o? [1 TO 5] {x} a^3 a\\b a/b`;
    const query = toLuceneQuery(nasty);
    expect(query).not.toBeNull();
    for (const term of (query as string).split(' OR ')) {
      expect(term).not.toMatch(/(?<!\\)[+\-&|!(){}[\]^"~*?:/]/);
      expect(term).not.toMatch(/^(AND|OR|NOT)$/);
    }
  });

  it('drops emoji but keeps the words around them', () => {
    expect(toLuceneQuery('deploy 🚀 tomorrow 👍')).toBe('deploy OR tomorrow');
  });

  it('keeps single ideographs, which are words on their own', () => {
    expect(toLuceneQuery('猫')).toBe('猫');
    expect(toLuceneQuery('机器学习')).toBe('机器学习');
  });

  it('de-duplicates case-insensitively and caps the number of terms', () => {
    expect(toLuceneQuery('Neo4j neo4j NEO4J')).toBe('neo4j');
    const words = Array.from({ length: 50 }, (_, i) => `word${i}`);
    const terms = (toLuceneQuery(words.join(' ')) as string).split(' OR ');
    expect(terms).toHaveLength(MAX_LUCENE_TERMS);
    expect(terms[0]).toBe('word0');
    expect(terms.at(-1)).toBe(`word${MAX_LUCENE_TERMS - 1}`);
  });

  it('treats curly-apostrophe contractions like straight ones', () => {
    expect(toLuceneQuery('what’s pnpm')).toBe('pnpm');
    expect(toLuceneQuery("Alice's laptop")).toBe("alice's OR laptop");
  });
});

describe('escapeLuceneTerm', () => {
  it('escapes every special character and round-trips', () => {
    for (const special of SPECIALS) {
      const term = `a${special}b`;
      const escaped = escapeLuceneTerm(term);
      expect(escaped).not.toBe(term);
      expect(unescape(escaped)).toBe(term);
    }
    const all = SPECIALS.join('');
    const escaped = escapeLuceneTerm(all);
    expect(escaped).toBe([...all].map((c) => `\\${c}`).join(''));
    expect(unescape(escaped)).toBe(all);
  });

  it('lowercases bare boolean keywords and leaves plain words alone', () => {
    expect(escapeLuceneTerm('AND')).toBe('and');
    expect(escapeLuceneTerm('OR')).toBe('or');
    expect(escapeLuceneTerm('NOT')).toBe('not');
    expect(escapeLuceneTerm('ANDROID')).toBe('ANDROID');
    expect(escapeLuceneTerm('café')).toBe('café');
  });
});

describe('queryTokens', () => {
  it('lowercases, drops stop words and one-letter runs, splits on punctuation', () => {
    expect(queryTokens('What is the Neo4j vector index? path/to/file.ts')).toEqual(['neo4j', 'vector', 'index', 'path', 'file', 'ts']);
    expect(queryTokens("C++ x y don't")).toEqual([]);
  });

  it('de-duplicates in order of first appearance', () => {
    expect(queryTokens('Alice met alice and ALICE met Bob')).toEqual(['alice', 'met', 'bob']);
  });

  it('exposes the stop words it uses', () => {
    expect(STOP_WORDS.has('the')).toBe(true);
    expect(STOP_WORDS.has('neo4j')).toBe(false);
  });
});
