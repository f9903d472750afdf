import { buildSchema, isObjectType, parse } from 'graphql';
import { describe, expect, it } from 'vitest';
import { ASSUMED_LIST_SIZES, FIELD_COSTS, ITEM_COSTS, operationCost } from './cost-limit.js';
import { typeDefs } from './schema.js';

const schema = buildSchema(typeDefs);
const cost = (query: string, variables: Record<string, unknown> = {}, operationName?: string) =>
  operationCost(schema, parse(query), operationName, variables);

describe('operationCost', () => {
  it('counts every plain field once and a priced root field at its price', () => {
    // health (10) › ok, neo4j › connected
    expect(cost('{ health { ok neo4j { connected } } }')).toBe(10 + 3);
    expect(cost('{ memory(id: "m") { id content } }')).toBe(3);
  });

  it('prices every alias of an expensive root field again', () => {
    const one = cost('{ recall(query: "q", limit: 1) { items { score } } }');
    expect(one).toBe(200 + 2);
    expect(cost('{ a: recall(query: "q", limit: 1) { items { score } } b: recall(query: "q", limit: 1) { items { score } } }')).toBe(
      2 * one,
    );
    expect(cost('{ a: search(query: "q", limit: 1) { hits { id } } b: timeline(query: "q", before: 0, after: 0) { anchor { id } } }')).toBe(
      200 + 2 + 100 + 2,
    );
  });

  it('multiplies a list field by its first/limit argument, its default, or a variable', () => {
    // recall: 200 + items(1 + memory(1 + content 1)) × limit
    expect(cost('{ recall(query: "q", limit: 4) { items { memory { content } } } }')).toBe(200 + 3 * 4);
    expect(cost('{ recall(query: "q") { items { memory { content } } } }')).toBe(200 + 3 * 10);
    expect(cost('query Q($n: Int) { recall(query: "q", limit: $n) { items { memory { content } } } }', { n: 50 })).toBe(200 + 3 * 50);
  });

  it('sizes id and input lists by their length', () => {
    expect(cost('{ memories(ids: ["a", "b", "c"]) { id } }')).toBe(1 + 3);
    expect(
      cost('mutation M($inputs: [RememberInput!]!) { rememberBatch(inputs: $inputs) { index } }', {
        inputs: [{ content: 'a' }, { content: 'b' }],
      }),
    ).toBe(1 + (5 + 1) * 2);
  });

  it('assumes a size for relationship lists without a size argument, so nesting multiplies', () => {
    // memory(1 + entities(1 + memories(1 + id × 10) × the entities' assumed size))
    expect(cost('{ memory(id: "m") { entities { memories { id } } } }')).toBe(1 + (1 + (1 + 10) * ASSUMED_LIST_SIZES['Memory.entities']!));
  });

  it('counts only the operation that runs', () => {
    const doc = 'query A { health { ok } } query B { recall(query: "q", limit: 100) { items { score } } }';
    expect(cost(doc, {}, 'A')).toBe(10 + 1);
    expect(cost(doc, {}, 'B')).toBe(200 + 2 * 100);
  });

  it('names only fields that exist in the schema in its price and size tables', () => {
    for (const key of [...Object.keys(ASSUMED_LIST_SIZES), ...Object.keys(FIELD_COSTS), ...Object.keys(ITEM_COSTS)]) {
      const [typeName, fieldName] = key.split('.') as [string, string];
      const type = schema.getType(typeName);
      expect(type && isObjectType(type) ? type.getFields()[fieldName] : undefined, key).toBeDefined();
    }
  });
});
