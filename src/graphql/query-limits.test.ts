import { buildSchema, parse, specifiedRules, validate } from 'graphql';
import { describe, expect, it } from 'vitest';
import { isMnemographError } from '../errors.js';
import { assertTokenLimit, queryLimitRules } from './query-limits.js';
import { typeDefs } from './schema.js';

const schema = buildSchema(typeDefs);
const LIMITS = { maxDepth: 8, maxAliases: 3, maxDirectives: 4 };
const check = (query: string) => validate(schema, parse(query), [...specifiedRules, ...queryLimitRules(LIMITS)]);
const codes = (query: string) => check(query).map((e) => e.extensions.code ?? 'GRAPHQL_VALIDATION_FAILED');

/** `levels` fragments, each spreading the previous one twice: 2^levels spreads when expanded. */
function fragmentBomb(levels: number): string {
  let fragments = 'fragment F0 on Memory { id content entities { memories { id } } }\n';
  for (let i = 1; i <= levels; i++) fragments += `fragment F${i} on Memory { ...F${i - 1} ...F${i - 1} }\n`;
  return `{ memory(id: "m") { ...F${levels} } }\n${fragments}`;
}

describe('queryLimitRules (GraphQL Armor)', () => {
  it('accepts an ordinary query', () => {
    expect(check('{ memory(id: "m") { id entities { name memories { id } } } }')).toEqual([]);
  });

  it('counts depth through named and inline fragments without counting the fragments themselves', () => {
    // memory › entities › memories › entities › memories › entities › memories › id = 8 levels
    const eight = 'entities { memories { entities { memories { entities { memories { id } } } } } }';
    expect(check(`{ memory(id: "m") { ...on Memory { ${eight.replace('{ id }', '{ ...M }')} } } } fragment M on Memory { id }`)).toEqual(
      [],
    );
    const nine = eight.replace('{ id }', '{ entities { name } }');
    const errors = check(`{ memory(id: "m") { ...D } } fragment D on Memory { ${nine} }`);
    expect(errors.map((e) => [e.extensions.code, e.message])).toEqual([
      ['LIMIT_EXCEEDED', 'query depth exceeds the maximum of 8 (MAX_QUERY_DEPTH)'],
    ]);
  });

  it('walks a fragment bomb in linear time (the old depth rule re-walked every spread: minutes at 25 levels)', () => {
    const started = performance.now();
    const errors = check(fragmentBomb(40));
    // Generous bound: 2^40 spreads can only be walked this fast when each fragment is walked once.
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(errors.filter((e) => e.extensions.code === 'LIMIT_EXCEEDED')).toEqual([]);
  });

  it('counts aliases, including those repeated through fragment spreads', () => {
    expect(codes('{ a: health { ok } b: health { ok } c: health { ok } }')).toEqual([]);
    expect(codes('{ a: health { ok } b: health { ok } c: health { ok } d: health { ok } }')).toEqual(['LIMIT_EXCEEDED']);
    expect(codes('{ memory(id: "m") { ...A ...B } } fragment A on Memory { x: id y: id } fragment B on Memory { ...A }')).toEqual([
      'LIMIT_EXCEEDED',
    ]);
  });

  it('counts directives', () => {
    const field = (i: number) => `f${i}: health @include(if: true) { ok }`;
    expect(codes(`{ ${[0, 1].map(field).join(' ')} }`)).toEqual([]);
    expect(
      codes(
        '{ health @include(if: true) @skip(if: false) { ok @include(if: true) @skip(if: false) neo4j @skip(if: false) { connected } } }',
      ),
    ).toEqual(['LIMIT_EXCEEDED']);
  });
});

describe('assertTokenLimit (GraphQL Armor lexer)', () => {
  it('passes a document within the limit and leaves syntax errors to the server', () => {
    expect(() => assertTokenLimit('{ health { ok } }', 200)).not.toThrow();
    expect(() => assertTokenLimit('{ health { ', 200)).not.toThrow();
  });

  it('stops at the first token past the limit with LIMIT_EXCEEDED, even on a huge document', () => {
    const huge = `{ ${'health { ok } '.repeat(200_000)} }`;
    const started = performance.now();
    let thrown: unknown;
    try {
      assertTokenLimit(huge, 200);
    } catch (error) {
      thrown = error;
    }
    expect(isMnemographError(thrown) && thrown.code).toBe('LIMIT_EXCEEDED');
    expect((thrown as Error).message).toBe('query has more than 200 tokens (MAX_QUERY_TOKENS)');
    expect(performance.now() - started).toBeLessThan(500);
  });
});
