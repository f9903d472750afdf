import { describe, expect, it } from 'vitest';
import { queryTokens } from '../../text/lucene.js';
import { coversName, entityNameQuery } from './graph-boost.js';

const words = (q: string) => queryTokens(q);

describe('coversName', () => {
  it('names an entity by a prefix of its name ("postgres" → PostgreSQL)', () => {
    expect(coversName(words('where does postgres run?'), 'PostgreSQL')).toBe(true);
  });

  it('does not stretch a short prefix ("java" is not JavaScript)', () => {
    expect(coversName(words('java build'), 'JavaScript')).toBe(false);
  });

  it('names a three-word entity only when every word is in the query', () => {
    expect(coversName(words('what runs on the acme cloud platform?'), 'Acme Cloud Platform')).toBe(true);
    expect(coversName(words('acme cloud migration'), 'Acme Cloud Platform')).toBe(false);
  });

  it('ignores stop words inside a name', () => {
    expect(coversName(words('bank america fees'), 'Bank of America')).toBe(true);
  });
});

describe('entityNameQuery', () => {
  it('confines the query to the namespace and escapes every term', () => {
    expect(entityNameQuery('nsabc', ['postgres', 'c++'])).toBe('namespaceToken:nsabc^0 AND (postgres OR postgres* OR c\\+\\+)');
    expect(entityNameQuery('nsabc', [])).toBeNull();
  });
});
