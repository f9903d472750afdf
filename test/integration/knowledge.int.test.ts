import { describe, expect, integrationTest } from '../support/fixture.js';
import { uniqueNamespace } from '../support/services.js';

const KEY_RW = 'knowledge-rw-0123456789abcdef';
const KEY_RO = 'knowledge-ro-0123456789abcdef';
const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

const CREATE = `mutation ($ns: String, $name: String!, $type: EntityType, $description: String) {
  createEntity(namespace: $ns, name: $name, type: $type, description: $description) { created entity { id name canonicalName type description mentions aliases } } }`;
const RELATE = `mutation ($ns: String, $s: String!, $t: String!, $o: String!, $c: Float) {
  relate(namespace: $ns, source: $s, type: $t, target: $o, confidence: $c) { id type direction confidence mentions source { name } target { name } } }`;
const ASSERT = `mutation ($ns: String, $e: String!, $a: String!, $c: String!, $k: AttributeKind, $conf: Float) {
  assertFact(namespace: $ns, entity: $e, aspect: $a, content: $c, kind: $k, confidence: $conf) {
    outcome superseded memory { id content type who why } attribute { id content kind status confidence } entity { id } } }`;
const MERGE = `mutation ($ns: String, $keep: String!, $merge: String!) {
  mergeEntities(namespace: $ns, keep: $keep, merge: $merge) { movedMentions movedAspects movedAttributes movedRelations
    entity { id name aliases mentions aspects { name attributes { content } } relations { type direction source { name } target { name } } } } }`;
const ERASE = `mutation ($ns: String!, $confirm: String!) { deleteNamespace(namespace: $ns, confirm: $confirm) { namespace total deleted { label count } } }`;

const ns = uniqueNamespace('kg');
const other = uniqueNamespace('kg-other');
const it = integrationTest({
  env: {
    DEFAULT_NAMESPACE: ns,
    API_KEYS: JSON.stringify([
      { key: KEY_RW, name: 'agent', namespaces: [ns, other] },
      { key: KEY_RO, name: 'viewer', namespaces: [ns], readOnly: true },
    ]),
  },
  sharedNamespaces: [ns, other],
});

describe('structured writes (createEntity, relate, assertFact, mergeEntities, deleteNamespace)', () => {
  const rw = bearer(KEY_RW);

  it('creates an entity once, updates its type on a repeat, and redacts what it stores', async ({ services, graphql: gql }) => {
    const first = (
      await gql.data(CREATE, { ns, name: 'Alice  Martin', type: 'person', description: 'uses password=hunter2hunter2 at work' }, rw)
    ).createEntity;
    expect(first.created).toBe(true);
    expect(first.entity).toMatchObject({ name: 'Alice Martin', canonicalName: 'alice martin', type: 'person', mentions: 0, aliases: [] });
    expect(first.entity.description).not.toContain('hunter2');
    const again = (await gql.data(CREATE, { ns, name: 'alice martin', type: 'organization' }, rw)).createEntity;
    expect(again.created).toBe(false);
    expect(again.entity.id).toBe(first.entity.id);
    expect(again.entity.type).toBe('organization');
    expect(again.entity.description).toBe(first.entity.description);
    const count = await services.executor.read<{ n: number }>(
      't',
      `MATCH (e:Entity {namespace: $ns, canonicalName: 'alice martin'}) RETURN count(e) AS n`,
      { ns },
    );
    expect(count[0]!.n).toBe(1);
  });

  it('relates two entities with an id, counts a repeat once per call, and validates the type', async ({ graphql: gql }) => {
    await gql.data(CREATE, { ns, name: 'Bob', type: 'person' }, rw);
    await gql.data(CREATE, { ns, name: 'Acme Corp', type: 'organization' }, rw);
    const rel = (await gql.data(RELATE, { ns, s: 'bob', t: 'Works_At', o: 'ACME corp', c: 0.8 }, rw)).relate;
    expect(rel).toMatchObject({
      type: 'works_at',
      direction: 'OUT',
      confidence: 0.8,
      mentions: 1,
      source: { name: 'Bob' },
      target: { name: 'Acme Corp' },
    });
    expect(rel.id).toMatch(/^[0-9a-f-]{36}$/);
    const repeat = (await gql.data(RELATE, { ns, s: 'Bob', t: 'works_at', o: 'Acme Corp', c: 0.9 }, rw)).relate;
    expect(repeat).toMatchObject({ id: rel.id, mentions: 2, confidence: 0.9 });

    const injected = await gql.exec(RELATE, { ns, s: 'Bob', t: 'x]->(n) DETACH DELETE n //', o: 'Acme Corp' }, rw);
    expect(injected.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    const missing = await gql.exec(RELATE, { ns, s: 'Bob', t: 'knows', o: 'Nobody Here' }, rw);
    expect(missing.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
    expect(missing.errors?.[0]?.message).toContain('Nobody Here');
    const badConfidence = await gql.exec(RELATE, { ns, s: 'Bob', t: 'knows', o: 'Acme Corp', c: 1.5 }, rw);
    expect(badConfidence.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
  });

  it('asserts facts through the gate, stores them as memories, dedups a repeat and supersedes a contradiction', async ({
    services,
    graphql: gql,
  }) => {
    await gql.data(CREATE, { ns, name: 'Carol', type: 'person' }, rw);
    const first = (await gql.data(ASSERT, { ns, e: 'carol', a: 'Preferences', c: 'likes dark mode in the editor' }, rw)).assertFact;
    expect(first.outcome).toBe('created');
    expect(first.memory).toMatchObject({
      content: 'Carol: likes dark mode in the editor',
      type: 'fact',
      who: 'agent',
      why: 'asserted-fact',
    });
    expect(first.attribute).toMatchObject({ content: 'likes dark mode in the editor', kind: 'attribute', status: 'active' });

    const repeat = (await gql.data(ASSERT, { ns, e: 'Carol', a: 'preferences', c: 'likes dark mode in the editor' }, rw)).assertFact;
    expect(repeat).toMatchObject({ outcome: 'deduped', attribute: null, memory: { id: first.memory.id } });

    const contra = (await gql.data(ASSERT, { ns, e: 'Carol', a: 'preferences', c: 'dislikes dark mode in the editor' }, rw)).assertFact;
    expect(contra.outcome).toBe('created');
    expect(contra.superseded).toEqual([first.attribute.id]);
    const history = await gql.data(
      `query ($id: ID!) { attributeHistory(entityId: $id, aspect: "preferences") { content status supersededBy { id } } }`,
      { id: contra.entity.id },
      rw,
    );
    expect(history.attributeHistory).toEqual([
      { content: 'likes dark mode in the editor', status: 'superseded', supersededBy: { id: contra.attribute.id } },
      { content: 'dislikes dark mode in the editor', status: 'active', supersededBy: null },
    ]);
    const audit = await services.executor.read<{ n: number }>(
      't',
      `MATCH (h:HistoryEvent {event: 'fact.asserted', namespace: $ns}) RETURN count(h) AS n`,
      { ns },
    );
    expect(audit[0]!.n).toBe(3);

    const low = (await gql.data(ASSERT, { ns, e: 'Carol', a: 'preferences', c: 'maybe likes tea', conf: 0.01 }, rw)).assertFact;
    expect(low).toMatchObject({ outcome: 'skipped:low_fact_confidence', memory: null, attribute: null });
    const decision = (
      await gql.data(ASSERT, { ns, e: 'Carol', a: 'decisions', c: 'Carol will use Postgres for billing', k: 'constraint' }, rw)
    ).assertFact;
    expect(decision.memory).toMatchObject({ type: 'decision', content: 'Carol will use Postgres for billing' });
    expect(decision.attribute.kind).toBe('constraint');

    const unknown = await gql.exec(ASSERT, { ns, e: 'Nobody', a: 'facts', c: 'exists' }, rw);
    expect(unknown.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
  });

  it('merges an entity into another: mentions, aspects, attributes and relations move, an audit event stays', async ({
    services,
    graphql: gql,
  }) => {
    await gql.data(CREATE, { ns, name: 'Dave', type: 'person' }, rw);
    await gql.data(CREATE, { ns, name: 'David', type: 'person' }, rw);
    await gql.data(CREATE, { ns, name: 'Globex', type: 'organization' }, rw);
    await gql.data(ASSERT, { ns, e: 'Dave', a: 'skills', c: 'writes Rust' }, rw);
    await gql.data(ASSERT, { ns, e: 'David', a: 'skills', c: 'writes Go' }, rw);
    await gql.data(ASSERT, { ns, e: 'David', a: 'location', c: 'lives in Oslo' }, rw);
    await gql.data(RELATE, { ns, s: 'David', t: 'works at', o: 'Globex' }, rw);
    await gql.data(RELATE, { ns, s: 'Dave', t: 'same as', o: 'David' }, rw);

    const merged = (await gql.data(MERGE, { ns, keep: 'Dave', merge: 'david' }, rw)).mergeEntities;
    // The write-time linker also relates David to Oslo ("David: lives in Oslo") and to Go ("David:
    // writes Go", a capitalised name mid-sentence) as co-mentioned.
    expect(merged).toMatchObject({ movedAspects: 2, movedAttributes: 2, movedRelations: 3 });
    expect(merged.movedMentions).toBeGreaterThanOrEqual(2);
    expect(merged.entity.aliases).toEqual(['David']);
    const aspects = Object.fromEntries(
      merged.entity.aspects.map((a: { name: string; attributes: Array<{ content: string }> }) => [
        a.name,
        a.attributes.map((x) => x.content).sort(),
      ]),
    );
    expect(aspects).toEqual({ skills: ['writes Go', 'writes Rust'], location: ['lives in Oslo'] });
    expect(merged.entity.relations.filter((r: { type: string }) => r.type !== 'co_mentioned')).toEqual([
      { type: 'works at', direction: 'OUT', source: { name: 'Dave' }, target: { name: 'Globex' } },
    ]);

    // The merged name is an alias now: a lookup by it answers the entity it was merged into.
    const gone = await gql.data(`query ($ns: String) { entity(name: "David", namespace: $ns) { name } }`, { ns }, rw);
    expect(gone.entity).toEqual({ name: 'Dave' });
    const memories = await gql.data(
      `query ($ns: String) { entity(name: "Dave", namespace: $ns) { mentions memories(first: 10) { content } } }`,
      { ns },
      rw,
    );
    expect(memories.entity.memories.map((m: { content: string }) => m.content)).toEqual(
      expect.arrayContaining(['David: writes Go', 'David: lives in Oslo']),
    );
    const audit = await services.executor.read<{ details: string }>(
      't',
      `MATCH (h:HistoryEvent {event: 'entity.merged', namespace: $ns})-[:ABOUT]->(:Entity {name: 'Dave'}) RETURN h.details AS details`,
      { ns },
    );
    expect(audit).toHaveLength(1);
    expect(JSON.parse(audit[0]!.details)).toMatchObject({ aspects: 2, attributes: 2, relations: 3 });

    const self = await gql.exec(MERGE, { ns, keep: 'Dave', merge: ' dave ' }, rw);
    expect(self.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    const twice = await gql.exec(MERGE, { ns, keep: 'Dave', merge: 'David' }, rw);
    expect(twice.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
  });

  it('after a merge, forgetting the memories behind the merged relations and co-mention edges takes their mentions back', async ({
    services,
    graphql: gql,
  }) => {
    await gql.data(CREATE, { ns, name: 'Kim', type: 'person' }, rw);
    await gql.data(CREATE, { ns, name: 'Kimberly', type: 'person' }, rw);
    await gql.data(CREATE, { ns, name: 'Initech', type: 'organization' }, rw);
    // Each fact memory names its entity and Oslo: the write-time linker counts one co-mention edge each.
    const kim = (await gql.data(ASSERT, { ns, e: 'Kim', a: 'location', c: 'lives in Oslo' }, rw)).assertFact.memory.id as string;
    const kimberly = (await gql.data(ASSERT, { ns, e: 'Kimberly', a: 'location', c: 'lives in Oslo' }, rw)).assertFact.memory.id as string;
    // One memory naming both and Oslo: two co-mention edges to Oslo that the merge makes one.
    const both = (await gql.data(ASSERT, { ns, e: 'Kim', a: 'habits', c: 'meets Kimberly in Oslo every spring' }, rw)).assertFact.memory
      .id as string;
    // An extracted relation from each memory, as the deep path writes it (graph-write.ts): one source per mention.
    await services.executor.write(
      't',
      `
      UNWIND [[$kim, 'kim'], [$kimberly, 'kimberly']] AS x
      MATCH (s:Entity {namespace: $ns, canonicalName: x[1]}), (o:Entity {namespace: $ns, canonicalName: 'initech'})
      CREATE (s)-[:RELATES_TO {type: 'works at', strength: 1.0, confidence: 0.9, mentions: 1, sources: [x[0]], createdAt: 'now'}]->(o)`,
      { ns, kim, kimberly },
    );
    const edges = () =>
      services.executor.read<{ type: string; mentions: number }>(
        't',
        `
      MATCH (:Entity {namespace: $ns, canonicalName: 'kim'})-[r:RELATES_TO]->(o:Entity) WHERE o.canonicalName IN ['oslo', 'initech']
      RETURN r.type AS type, r.mentions AS mentions ORDER BY type`,
        { ns },
      );

    await gql.data(MERGE, { ns, keep: 'Kim', merge: 'Kimberly' }, rw);
    // Three memories co-mention Kim and Oslo now, each once.
    expect(await edges()).toEqual([
      { type: 'co_mentioned', mentions: 3 },
      { type: 'works at', mentions: 2 },
    ]);

    const FORGET = `mutation ($id: ID!) { forget(id: $id) { id } }`;
    await gql.data(FORGET, { id: kimberly }, rw);
    expect(await edges()).toEqual([
      { type: 'co_mentioned', mentions: 2 },
      { type: 'works at', mentions: 1 },
    ]);
    await gql.data(FORGET, { id: both }, rw);
    await gql.data(FORGET, { id: kim }, rw);
    expect(await edges()).toEqual([]);
  });

  it('Entity.relations lists the most mentioned ten; relationCount says how many there are in all', async ({ graphql: gql }) => {
    await gql.data(CREATE, { ns, name: 'Hub', type: 'person' }, rw);
    for (let i = 0; i < 12; i++) {
      await gql.data(CREATE, { ns, name: `Hub Contact ${i}`, type: 'person' }, rw);
      await gql.data(RELATE, { ns, s: 'Hub', t: 'knows', o: `Hub Contact ${i}` }, rw);
    }
    const listed = (
      await gql.data(`query ($ns: String) { entity(name: "Hub", namespace: $ns) { relations { type } relationCount } }`, { ns }, rw)
    ).entity;
    expect(listed.relations).toHaveLength(10);
    expect(listed.relationCount).toBe(12);
    const contact = (
      await gql.data(
        `query ($ns: String) { entity(name: "Hub Contact 3", namespace: $ns) { relations { type } relationCount } }`,
        { ns },
        rw,
      )
    ).entity;
    expect(contact).toEqual({ relations: [{ type: 'knows' }], relationCount: 1 });
  });

  it('refuses read-only keys and namespaces the key lacks, for every structured write', async ({ graphql: gql }) => {
    const ro = bearer(KEY_RO);
    const calls: Array<[string, Record<string, unknown>]> = [
      [CREATE, { ns, name: 'Eve' }],
      [RELATE, { ns, s: 'Bob', t: 'knows', o: 'Acme Corp' }],
      [ASSERT, { ns, e: 'Bob', a: 'facts', c: 'is tall' }],
      [MERGE, { ns, keep: 'Bob', merge: 'Acme Corp' }],
      [ERASE, { ns, confirm: ns }],
    ];
    for (const [query, variables] of calls) {
      expect((await gql.exec(query, variables, ro)).errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
      expect((await gql.exec(query, { ...variables, ns: uniqueNamespace('stranger') }, rw)).errors?.[0]?.extensions?.code).toBe(
        'FORBIDDEN',
      );
    }
    await expect(gql.exec(CREATE, { ns, name: 'Eve' })).rejects.toMatchObject({ code: 'UNAUTHENTICATED' });
    const bob = await gql.data(`query ($ns: String) { entity(name: "Bob", namespace: $ns) { relations { mentions } } }`, { ns }, rw);
    expect(bob.entity.relations).toEqual([{ mentions: 2 }]);
  });

  it('deletes a namespace in batches, only that namespace, and reports zeros on a repeat', async ({ services, graphql: gql }) => {
    await gql.data(CREATE, { ns: other, name: 'Frank', type: 'person' }, rw);
    await gql.data(ASSERT, { ns: other, e: 'Frank', a: 'facts', c: 'plays chess on Sundays' }, rw);
    await gql.data(
      `mutation ($ns: String) { remember(input: { content: "Frank met Grace at the chess club in Bergen.", namespace: $ns }) { memory { id } } }`,
      { ns: other },
      rw,
    );

    const unconfirmed = await gql.exec(ERASE, { ns: other, confirm: ns }, rw);
    expect(unconfirmed.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');

    const erased = (await gql.data(ERASE, { ns: other, confirm: other }, rw)).deleteNamespace;
    const byLabel = Object.fromEntries(erased.deleted.map((d: { label: string; count: number }) => [d.label, d.count]));
    expect(byLabel.Memory).toBe(2);
    expect(byLabel.Entity).toBeGreaterThanOrEqual(1);
    expect(byLabel.Chunk).toBeGreaterThanOrEqual(2);
    expect(byLabel.Attribute).toBe(1);
    expect(erased.total).toBe(Object.values(byLabel).reduce((a, b) => (a as number) + (b as number), 0));
    const left = await services.executor.read<{ n: number }>('t', `MATCH (n) WHERE n.namespace = $ns RETURN count(n) AS n`, { ns: other });
    expect(left[0]!.n).toBe(0);
    const orphans = await services.executor.read<{ n: number }>(
      't',
      `MATCH (c:Chunk) WHERE NOT (:Memory)-[:HAS_CHUNK]->(c) AND c.namespace = $ns RETURN count(c) AS n`,
      { ns: other },
    );
    expect(orphans[0]!.n).toBe(0);

    const again = (await gql.data(ERASE, { ns: other, confirm: other }, rw)).deleteNamespace;
    expect(again.total).toBe(0);
    const survivor = await gql.data(`query ($ns: String) { entity(name: "Bob", namespace: $ns) { id } }`, { ns }, rw);
    expect(survivor.entity).not.toBeNull();
  });
});
