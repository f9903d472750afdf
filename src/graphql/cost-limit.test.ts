import { buildSchema, isObjectType, parse } from 'graphql';
import { describe, expect, it } from 'vitest';
import { ASSUMED_LIST_SIZES, operationCost } from './cost-limit.js';
import { typeDefs } from './schema.js';

const schema = buildSchema(typeDefs);
const cost = (query: string, variables: Record<string, unknown> = {}, operationName?: string) => operationCost(schema, parse(query), operationName, variables);

describe('operationCost', () => {
  it('counts every field once when no list is involved', () => {
    expect(cost('{ health { ok neo4j { connected } } }')).toBe(4);
  });

  it('multiplies a list field by its first/limit argument, its default, or a variable', () => {
    // recall: 1 + items(1 + memory(1 + content 1)) × limit
    expect(cost('{ recall(query: "q", limit: 4) { items { memory { content } } } }')).toBe(1 + 3 * 4);
    expect(cost('{ recall(query: "q") { items { memory { content } } } }')).toBe(1 + 3 * 10);
    expect(cost('query Q($n: Int) { recall(query: "q", limit: $n) { items { memory { content } } } }', { n: 50 })).toBe(1 + 3 * 50);
  });

  it('sizes id and input lists by their length', () => {
    expect(cost('{ memories(ids: ["a", "b", "c"]) { id } }')).toBe(1 + 3);
    expect(cost('mutation M($inputs: [RememberInput!]!) { rememberBatch(inputs: $inputs) { index } }', { inputs: [{ content: 'a' }, { content: 'b' }] })).toBe(1 + 2);
  });

  it('assumes a size for relationship lists without a size argument, so nesting multiplies', () => {
    // memory(1 + entities(1 + memories(1 + id × 10) × 5))
    expect(cost('{ memory(id: "m") { entities { memories { id } } } }')).toBe(1 + (1 + (1 + 10) * 5));
  });

  it('counts only the operation that runs', () => {
    const doc = 'query A { health { ok } } query B { recall(query: "q", limit: 100) { items { score } } }';
    expect(cost(doc, {}, 'A')).toBe(2);
    expect(cost(doc, {}, 'B')).toBe(1 + 2 * 100);
  });

  it('names only fields that exist in the schema as assumed-size lists', () => {
    for (const key of Object.keys(ASSUMED_LIST_SIZES)) {
      const [typeName, fieldName] = key.split('.') as [string, string];
      const type = schema.getType(typeName);
      expect(type && isObjectType(type) ? type.getFields()[fieldName] : undefined, key).toBeDefined();
    }
  });
});
