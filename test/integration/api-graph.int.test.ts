import { randomUUID } from 'node:crypto';
import { describe, expect, it } from '../support/fixture.js';
import { createEntity, relate, seedGraph } from '../support/graph-fixtures.js';

const ENTITIES = `
query ($ns: String, $search: String, $type: EntityType, $first: Int, $after: String) {
  entities(namespace: $ns, search: $search, type: $type, first: $first, after: $after) {
    edges { cursor node { id name canonicalName type mentions } }
    pageInfo { hasNextPage endCursor }
  }
}`;

describe('entity graph queries', () => {
  it('finds an entity by id or by name, and not by id under another namespace', async ({
    services,
    graphql: gql,
    freshNamespace: fresh,
  }) => {
    const ns = fresh('entity');
    const id = await createEntity(services, ns, 'Payments API', { mentions: 3, type: 'system' });
    const byId = await gql.data(`query ($id: ID) { entity(id: $id) { id name type mentions namespace } }`, { id });
    expect(byId.entity).toMatchObject({ id, name: 'Payments API', type: 'system', mentions: 3, namespace: ns });
    const byName = await gql.data(`query ($ns: String) { entity(name: "  payments   API ", namespace: $ns) { id } }`, { ns });
    expect(byName.entity.id).toBe(id);
    const elsewhere = await gql.data(`query ($id: ID, $ns: String) { entity(id: $id, namespace: $ns) { id } }`, { id, ns: fresh('other') });
    expect(elsewhere.entity).toBeNull();
    expect((await gql.data(`query ($id: ID) { entity(id: $id) { id } }`, { id: randomUUID() })).entity).toBeNull();
    const neither = await gql.exec(`{ entity { id } }`);
    expect(neither.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
  });

  it('lists entities by mentions then name, pages through them, searches and filters by type', async ({
    services,
    graphql: gql,
    freshNamespace: fresh,
  }) => {
    const ns = fresh('entities');
    await createEntity(services, ns, 'Zeta', { mentions: 5 });
    await createEntity(services, ns, 'Alpha', { mentions: 5 });
    await createEntity(services, ns, 'Kafka Cluster', { mentions: 9, type: 'system' });
    await createEntity(services, ns, 'Beta', { mentions: 1, type: 'person' });
    await createEntity(services, ns, 'Kafka Connect', { mentions: 0, type: 'tool' });

    const all = (await gql.data(ENTITIES, { ns, first: 10 })).entities;
    expect(all.edges.map((e: { node: { name: string } }) => e.node.name)).toEqual([
      'Kafka Cluster',
      'Alpha',
      'Zeta',
      'Beta',
      'Kafka Connect',
    ]);
    expect(all.pageInfo.hasNextPage).toBe(false);

    const names: string[] = [];
    let after: string | null = null;
    let pages = 0;
    do {
      const page: any = (await gql.data(ENTITIES, { ns, first: 2, after })).entities;
      names.push(...page.edges.map((e: { node: { name: string } }) => e.node.name));
      after = page.pageInfo.hasNextPage ? page.pageInfo.endCursor : null;
      pages++;
    } while (after);
    expect(pages).toBe(3);
    expect(names).toEqual(['Kafka Cluster', 'Alpha', 'Zeta', 'Beta', 'Kafka Connect']);

    const kafka = (await gql.data(ENTITIES, { ns, search: 'KAFKA  c', first: 10 })).entities;
    expect(kafka.edges.map((e: { node: { name: string } }) => e.node.name)).toEqual(['Kafka Cluster', 'Kafka Connect']);
    const tools = (await gql.data(ENTITIES, { ns, type: 'tool', first: 10 })).entities;
    expect(tools.edges.map((e: { node: { name: string } }) => e.node.name)).toEqual(['Kafka Connect']);

    const empty = (await gql.data(ENTITIES, { ns: fresh('empty'), first: 10 })).entities;
    expect(empty).toEqual({ edges: [], pageInfo: { hasNextPage: false, endCursor: null } });
  });

  it('rejects an invalid entities cursor and a page over MAX_PAGE_SIZE', async ({ services, graphql: gql, freshNamespace: fresh }) => {
    const ns = fresh('cursor');
    const bad = await gql.exec(ENTITIES, { ns, first: 2, after: 'not-a-cursor' });
    expect(bad.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    const memoryCursor = Buffer.from(JSON.stringify(['memory', '2024-01-01T00:00:00.000Z', 'x'])).toString('base64url');
    expect((await gql.exec(ENTITIES, { ns, first: 2, after: memoryCursor })).errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    const tooMany = await gql.exec(ENTITIES, { ns, first: services.config.MAX_PAGE_SIZE + 1 });
    expect(tooMany.errors?.[0]?.extensions?.code).toBe('LIMIT_EXCEEDED');
  });

  it('returns an aspect by id with its entity and attributes', async ({ services, graphql: gql, freshNamespace: fresh }) => {
    const ns = fresh('aspect');
    const seeded = await seedGraph(services, ns, 2);
    const { aspect } = await gql.data(
      `query ($id: ID!) { aspect(id: $id) { id name canonicalName weight entity { id } attributes { id content source { id } } } }`,
      { id: seeded.aspectIds[1] },
    );
    expect(aspect).toMatchObject({ id: seeded.aspectIds[1], name: 'Role', canonicalName: 'role', entity: { id: seeded.entityIds[1] } });
    expect(aspect.attributes).toEqual([{ id: seeded.attributeIds[1], content: 'plays role 1', source: { id: seeded.memoryIds[1] } }]);
    expect((await gql.data(`query ($id: ID!) { aspect(id: $id) { id } }`, { id: randomUUID() })).aspect).toBeNull();
  });

  it('returns the supersession chain of an aspect oldest first, superseded ones included', async ({
    services,
    graphql: gql,
    freshNamespace: fresh,
  }) => {
    const ns = fresh('history');
    const entityId = await createEntity(services, ns, 'Office');
    const [a1, a2, a3] = [randomUUID(), randomUUID(), randomUUID()];
    // Created newest first, and a2/a3 share validFrom (one transaction): the chain decides.
    await services.executor.write(
      'test.chain',
      `MATCH (e:Entity {id: $entityId})
       CREATE (e)-[:HAS_ASPECT]->(asp:Aspect {id: randomUUID(), namespace: $ns, entityId: e.id, name: 'Location', canonicalName: 'location', weight: 1.0})
       CREATE (asp)-[:HAS_ATTRIBUTE]->(n3:Attribute {id: $a3, namespace: $ns, content: 'in Lisbon', kind: 'attribute', status: 'active', validFrom: '2024-03-01T00:00:00.000Z'})
       CREATE (asp)-[:HAS_ATTRIBUTE]->(n2:Attribute {id: $a2, namespace: $ns, content: 'in Porto', kind: 'attribute', status: 'superseded', validFrom: '2024-03-01T00:00:00.000Z', validTo: '2024-03-01T00:00:00.000Z'})
       CREATE (asp)-[:HAS_ATTRIBUTE]->(n1:Attribute {id: $a1, namespace: $ns, content: 'in Berlin', kind: 'attribute', status: 'superseded', validFrom: '2023-01-01T00:00:00.000Z', validTo: '2024-03-01T00:00:00.000Z'})
       CREATE (n3)-[:SUPERSEDES]->(n2), (n2)-[:SUPERSEDES]->(n1)`,
      { entityId, ns, a1, a2, a3 },
    );
    const HISTORY = `query ($id: ID!, $aspect: String!) { attributeHistory(entityId: $id, aspect: $aspect) { id content status supersedes { id } supersededBy { id } } }`;
    const { attributeHistory } = await gql.data(HISTORY, { id: entityId, aspect: ' LOCATION ' });
    expect(attributeHistory).toEqual([
      { id: a1, content: 'in Berlin', status: 'superseded', supersedes: null, supersededBy: { id: a2 } },
      { id: a2, content: 'in Porto', status: 'superseded', supersedes: { id: a1 }, supersededBy: { id: a3 } },
      { id: a3, content: 'in Lisbon', status: 'active', supersedes: { id: a2 }, supersededBy: null },
    ]);
    expect((await gql.data(HISTORY, { id: entityId, aspect: 'salary' })).attributeHistory).toEqual([]);
    expect((await gql.exec(HISTORY, { id: randomUUID(), aspect: 'location' })).errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
    // The aspect itself only shows active attributes unless asked.
    const { entity } = await gql.data(
      `query ($id: ID) { entity(id: $id) { aspects { attributes { id } all: attributes(includeSuperseded: true) { id } } } }`,
      { id: entityId },
    );
    expect(entity.aspects[0].attributes).toEqual([{ id: a3 }]);
    expect(entity.aspects[0].all).toHaveLength(3);
  });

  it('lists relations by direction and type', async ({ services, graphql: gql, freshNamespace: fresh }) => {
    const ns = fresh('relations');
    const [a, b, c] = [await createEntity(services, ns, 'A'), await createEntity(services, ns, 'B'), await createEntity(services, ns, 'C')];
    await relate(services, a, b, 'uses', 3);
    await relate(services, c, a, 'owns', 1);
    const RELATIONS = `query ($id: ID!, $dir: RelationDirection, $type: String) { relations(entityId: $id, direction: $dir, type: $type) { type direction mentions source { name } target { name } } }`;
    const both = (await gql.data(RELATIONS, { id: a })).relations;
    expect(both).toEqual([
      { type: 'uses', direction: 'OUT', mentions: 3, source: { name: 'A' }, target: { name: 'B' } },
      { type: 'owns', direction: 'IN', mentions: 1, source: { name: 'C' }, target: { name: 'A' } },
    ]);
    expect((await gql.data(RELATIONS, { id: a, dir: 'IN' })).relations.map((r: { type: string }) => r.type)).toEqual(['owns']);
    expect((await gql.data(RELATIONS, { id: a, dir: 'OUT' })).relations.map((r: { type: string }) => r.type)).toEqual(['uses']);
    expect((await gql.data(RELATIONS, { id: a, type: 'owns' })).relations).toHaveLength(1);
    expect((await gql.exec(RELATIONS, { id: randomUUID() })).errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
  });

  it('walks neighbors one or two hops, and refuses other depths', async ({ services, graphql: gql, freshNamespace: fresh }) => {
    const ns = fresh('neighbors');
    const [a, b, c, d, far] = [
      await createEntity(services, ns, 'A'),
      await createEntity(services, ns, 'B'),
      await createEntity(services, ns, 'C'),
      await createEntity(services, ns, 'D'),
      await createEntity(services, ns, 'Far'),
    ];
    await relate(services, a, b, 'uses');
    await relate(services, b, c, 'calls');
    await relate(services, d, a, 'owns');
    await relate(services, c, far, 'feeds');
    const NEIGHBORS = `query ($id: ID!, $depth: Int) { neighbors(entityId: $id, depth: $depth) { center { name } entities { name } relations { type direction source { name } target { name } } } }`;

    const one = (await gql.data(NEIGHBORS, { id: a, depth: 1 })).neighbors;
    expect(one.center.name).toBe('A');
    expect(one.entities.map((e: { name: string }) => e.name).sort()).toEqual(['B', 'D']);
    expect(one.relations.map((r: { type: string; direction: string }) => `${r.type}:${r.direction}`).sort()).toEqual([
      'owns:IN',
      'uses:OUT',
    ]);

    const two = (await gql.data(NEIGHBORS, { id: a, depth: 2 })).neighbors;
    expect(two.entities.map((e: { name: string }) => e.name).sort()).toEqual(['B', 'C', 'D']);
    expect(two.relations.map((r: { type: string }) => r.type).sort()).toEqual(['calls', 'owns', 'uses']);
    expect(two.relations.find((r: { type: string }) => r.type === 'calls')).toMatchObject({
      direction: 'OUT',
      source: { name: 'B' },
      target: { name: 'C' },
    });

    const defaults = (await gql.data(`query ($id: ID!) { neighbors(entityId: $id) { entities { name } } }`, { id: far })).neighbors;
    expect(defaults.entities).toEqual([{ name: 'C' }]);
    for (const depth of [0, 3, -1]) {
      expect((await gql.exec(NEIGHBORS, { id: a, depth })).errors?.[0]?.extensions?.code, `depth ${depth}`).toBe('BAD_USER_INPUT');
    }
    expect((await gql.exec(NEIGHBORS, { id: randomUUID(), depth: 1 })).errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
    const lonely = await createEntity(services, ns, 'Lonely');
    expect((await gql.data(NEIGHBORS, { id: lonely, depth: 2 })).neighbors).toEqual({
      center: { name: 'Lonely' },
      entities: [],
      relations: [],
    });
  });

  it('resolves a nested query over 50 entities with a constant number of Cypher queries', async ({
    services,
    graphql: gql,
    freshNamespace: fresh,
  }) => {
    const ns = fresh('loader');
    const seeded = await seedGraph(services, ns, 50);
    const NESTED = `query ($ns: String, $first: Int) { entities(namespace: $ns, first: $first) { edges { node {
      aspects { attributes { source { id } } } relations { target { name } }
    } } } }`;
    const run = async (first: number) => {
      const queries: string[] = [];
      const stop = services.executor.onQuery((event) => queries.push(event.cypher));
      try {
        return { result: await gql.data(NESTED, { ns, first }), queries };
      } finally {
        stop();
      }
    };
    const small = await run(10);
    const { result, queries } = await run(50);
    const nodes = result.entities.edges.map((e: { node: unknown }) => e.node);
    expect(nodes).toHaveLength(50);
    expect(
      nodes.every(
        (n: any) => n.aspects[0].attributes[0].source.id && n.relations.length === 2 && n.relations.every((r: any) => r.target.name),
      ),
    ).toBe(true);
    expect(new Set(nodes.flatMap((n: any) => n.aspects[0].attributes.map((a: any) => a.source.id)))).toEqual(new Set(seeded.memoryIds));
    // entities page, aspects, attributes, source memories, relations, relation targets outside the page.
    expect(queries.length, queries.join('\n----\n')).toBeLessThanOrEqual(6);
    expect(queries.length).toBeLessThanOrEqual(small.queries.length); // 5× the entities, no more queries
  });
});
