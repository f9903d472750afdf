import { randomUUID } from 'node:crypto';
import type { Services } from '../../src/app.js';
import { forgetMemory } from '../../src/db/queries/memory-mutations.js';
import { ConflictError } from '../../src/errors.js';
import { persistGraph, type GraphRelation } from '../../src/deep/graph-write.js';
import { relateEntities } from '../../src/db/queries/knowledge.js';
import { replayingExecutor } from '../support/replaying-executor.js';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '../support/fixture.js';
import { testServices } from '../support/services.js';

// Strong entities (PostgreSQL, MySQL, Kubernetes) with decision attributes.
const SOURCE = 'Alice Johnson prefers Postgres over MySQL. We decided to use Kubernetes for the Apollo deployment.';
const OTHER = 'The reporting service also stores its data in Postgres.';
const FACT = 'Alice Johnson prefers PostgreSQL to MySQL.';

const DERIVED = `
MATCH (m:Memory {id: $id})
RETURN COLLECT { MATCH (a:Attribute)-[:FROM]->(m) RETURN a { .status, .validTo, .supersededReason } } AS attributes,
       COUNT { (:Hint)-[:HINT_OF]->(m) } AS hints,
       COUNT { (m)-[:MENTIONS]->() } AS mentions,
       COLLECT { MATCH (f:Memory)-[:EXTRACTED_FROM]->(m) RETURN f { .id, .deletedAt, .dedupKey } } AS facts,
       COLLECT { MATCH (h:HistoryEvent)-[:ABOUT]->(m) RETURN h.event } AS events`;

const MENTIONS_OF = `MATCH (e:Entity {namespace: $ns, canonicalName: $name}) RETURN e.mentions AS mentions`;

/** Comparable across namespaces: times and ids left out. */
const shape = (d: Derived) => ({
  ...d,
  attributes: d.attributes
    .map((a) => ({ status: a.status, retired: a.validTo !== null, reason: a.supersededReason }))
    .sort((x, y) => JSON.stringify(x).localeCompare(JSON.stringify(y))),
  facts: d.facts.map((f) => f.deletedAt !== null),
  events: [...d.events].sort(),
});

interface Derived {
  attributes: Array<{ status: string; validTo: string | null; supersededReason: string | null }>;
  hints: number;
  mentions: number;
  facts: Array<{ id: string; deletedAt: string | null; dedupKey: string | null }>;
  events: string[];
}

describe('what is derived from a memory follows it when it is forgotten or rewritten', () => {
  let services: Services;
  let replayed: Services;
  beforeEach(({ services: fixture }) => void (services = fixture));
  const derived = async (id: string) =>
    (await services.executor.read<Derived & Record<string, unknown>>('test.derived', DERIVED, { id }))[0]!;
  const mentionsOf = async (namespace: string, name: string) =>
    (await services.executor.read<{ mentions: number }>('test.mentions', MENTIONS_OF, { ns: namespace, name }))[0]?.mentions;

  /** A source memory with attributes, mentions, a hint and one extracted fact; plus another memory mentioning PostgreSQL. */
  const seed = async (namespace: string) => {
    const source = await services.remember.remember({ content: SOURCE, namespace });
    await services.remember.remember({ content: OTHER, namespace });
    const [fact] = await services.remember.rememberBatch([{ content: FACT, namespace, who: 'pipeline-v2', why: 'extracted-fact' }], {
      enqueueJobs: false,
      derivedFrom: { memoryId: source.memory.id, contentHash: source.memory.contentHash },
    });
    await services.executor.write(
      'test.hint',
      `MATCH (m:Memory {id: $id}) CREATE (:Hint {id: randomUUID(), namespace: m.namespace, text: 'Which database does Alice prefer?'})-[:HINT_OF]->(m)`,
      { id: source.memory.id },
    );
    return { source: source.memory, fact: fact!.result!.memory };
  };

  beforeAll(() => {
    replayed = testServices({}, { wrapExecutor: (executor) => replayingExecutor(executor).executor });
  });
  afterAll(async () => {
    await replayed.executor.close();
  });

  it('forget supersedes attributes with a reason, removes hints and mentions, and forgets facts extracted from it alone', async ({
    freshNamespace: ns,
  }) => {
    const namespace = ns();
    const { source, fact } = await seed(namespace);
    const before = await derived(source.id);
    expect(before.attributes.length).toBeGreaterThan(0);
    expect(before.attributes.every((a) => a.status === 'active')).toBe(true);
    expect(before).toMatchObject({ hints: 1, facts: [{ id: fact.id, deletedAt: null }] });
    expect(before.mentions).toBeGreaterThan(0);
    const postgresBefore = await mentionsOf(namespace, 'postgresql');

    await forgetMemory(services.executor, { id: source.id, namespace, actor: 'test' }, 'no longer true');

    const after = await derived(source.id);
    expect(after.attributes.map((a) => a.status)).toEqual(before.attributes.map(() => 'superseded'));
    expect(after.attributes.every((a) => a.validTo !== null && a.supersededReason === 'the memory it was derived from was forgotten')).toBe(
      true,
    );
    expect(after).toMatchObject({ hints: 0, mentions: 0 });
    expect(after.facts).toEqual([{ id: fact.id, deletedAt: expect.any(String), dedupKey: null }]);
    // The fact's own mention of PostgreSQL goes too; the other memory's stays.
    expect(await mentionsOf(namespace, 'postgresql')).toBe(postgresBefore! - 2);
    expect(await mentionsOf(namespace, 'postgresql')).toBe(1);
    expect((await derived(fact.id)).events).toContain('forgotten');
  });

  it('a fact with another live source stays', async ({ freshNamespace: ns }) => {
    const namespace = ns();
    const { source, fact } = await seed(namespace);
    const second = await services.remember.remember({ content: 'Alice said again that Postgres beats MySQL for her team.', namespace });
    await services.executor.write('test.link', `MATCH (f:Memory {id: $fact}), (s:Memory {id: $src}) MERGE (f)-[:EXTRACTED_FROM]->(s)`, {
      fact: fact.id,
      src: second.memory.id,
    });
    await forgetMemory(services.executor, { id: source.id, namespace, actor: 'test' }, null);
    expect((await derived(source.id)).facts).toEqual([{ id: fact.id, deletedAt: null, dedupKey: expect.any(String) }]);
  });

  it('forget re-run after its COMMIT: one event, counts moved once', async ({ freshNamespace: ns }) => {
    const a = ns('forget-once');
    const b = ns('forget-twice');
    const seededA = await seed(a);
    const seededB = await seed(b);
    await forgetMemory(services.executor, { id: seededA.source.id, namespace: a, actor: 'test' }, 'x');
    await forgetMemory(replayed.executor, { id: seededB.source.id, namespace: b, actor: 'test' }, 'x');
    const [once, twice] = [await derived(seededA.source.id), await derived(seededB.source.id)];
    expect(twice.events.filter((e) => e === 'forgotten')).toHaveLength(1);
    expect(shape(twice)).toEqual(shape(once));
    for (const name of ['postgresql', 'mysql', 'kubernetes']) expect(await mentionsOf(b, name)).toBe(await mentionsOf(a, name));
  });

  it('updateMemory retires what the old content produced (facts, hints, attributes), also when re-run', async ({ freshNamespace: ns }) => {
    const a = ns('update-once');
    const b = ns('update-twice');
    const content = 'Bob Smith moved the Apollo deployment from Kubernetes to Nomad last week.';
    const seededA = await seed(a);
    const seededB = await seed(b);
    await services.update.update({ id: seededA.source.id, namespace: a, content, actor: 'test' });
    await replayed.update.update({ id: seededB.source.id, namespace: b, content, actor: 'test' });
    const [once, twice] = [await derived(seededA.source.id), await derived(seededB.source.id)];
    expect(once.facts).toEqual([{ id: seededA.fact.id, deletedAt: expect.any(String), dedupKey: null }]);
    expect(once.hints).toBe(0);
    expect(once.attributes.filter((x) => x.status === 'superseded').length).toBeGreaterThan(0);
    expect(
      once.attributes.filter((x) => x.status === 'superseded').every((x) => x.supersededReason === 'the memory content was updated'),
    ).toBe(true);
    expect(twice.events.filter((e) => e === 'updated')).toHaveLength(1);
    expect(shape(twice)).toEqual(shape(once));
    const chunks = async (id: string) =>
      (
        await services.executor.read<{ n: number }>('test.chunks', 'MATCH (:Memory {id: $id})-[:HAS_CHUNK]->(c) RETURN count(c) AS n', {
          id,
        })
      )[0]!.n;
    expect(await chunks(seededB.source.id)).toBe(await chunks(seededA.source.id));
    for (const name of ['postgresql', 'mysql', 'kubernetes']) expect(await mentionsOf(b, name)).toBe(await mentionsOf(a, name));
  });

  it('a write derived from a memory that changed since it was read is refused whole', async ({ freshNamespace: ns }) => {
    const namespace = ns();
    const { source } = await seed(namespace);
    await services.update.update({ id: source.id, namespace, content: 'The Apollo deployment now runs on Nomad.', actor: 'test' });
    const stale = services.remember.rememberBatch([{ content: 'Alice Johnson likes MySQL after all.', namespace }], {
      enqueueJobs: false,
      derivedFrom: { memoryId: source.id, contentHash: source.contentHash },
    });
    await expect(stale).rejects.toBeInstanceOf(ConflictError);
    const [row] = await services.executor.read<{ n: number }>(
      'test.count',
      `MATCH (m:Memory {namespace: $ns}) WHERE m.content CONTAINS 'after all' RETURN count(m) AS n`,
      { ns: namespace },
    );
    expect(row!.n).toBe(0);
  });

  describe('relations the deep path counted from a memory', () => {
    // Not the write-time linker's co-mention edges (it now makes entities of Apollo and Nomad too).
    const RELATIONS = `
      MATCH (s:Entity {namespace: $ns})-[r:RELATES_TO]->(o:Entity)
      WHERE r.type <> 'co_mentioned'
      RETURN s.canonicalName + ' ' + r.type + ' ' + o.canonicalName AS key, r.mentions AS mentions, r.sources AS sources
      ORDER BY key`;
    const relations = async (namespace: string) =>
      services.executor.read<{ key: string; mentions: number; sources: string[] | null }>('test.relations', RELATIONS, { ns: namespace });

    /** Writes `triples` as the deep path would from `memory` (entities, mentions, relations). */
    const contribute = async (namespace: string, memory: { id: string; contentHash: string }, triples: Array<[string, string, string]>) => {
      const names = [...new Set(triples.flatMap(([s, , o]) => [s, o]))];
      const relationsOf: GraphRelation[] = triples.map(([source, type, target]) => ({
        source: source.toLowerCase(),
        target: target.toLowerCase(),
        type,
        confidence: 0.8,
      }));
      await persistGraph(
        services.executor,
        {
          namespace,
          sourceMemoryId: memory.id,
          entities: names.map((name) => ({
            id: randomUUID(),
            name,
            canonicalName: name.toLowerCase(),
            mentionText: name,
            confidence: 0.9,
          })),
          relations: relationsOf,
          attributes: [],
          supersessions: [],
          retirements: [],
        },
        { now: new Date().toISOString(), model: 'test', sourceContentHash: memory.contentHash },
      );
    };

    /** Source alone behind Alice→Apollo; source and another memory behind Apollo→Nomad; Apollo→Kafka by relate(). */
    const seedRelations = async (namespace: string) => {
      const source = (await services.remember.remember({ content: 'Alice Johnson leads Apollo, which runs on Nomad.', namespace })).memory;
      const other = (await services.remember.remember({ content: 'Apollo is deployed on Nomad in every region.', namespace })).memory;
      await contribute(namespace, source, [
        ['Alice Johnson', 'leads', 'Apollo'],
        ['Apollo', 'runs_on', 'Nomad'],
      ]);
      await contribute(namespace, other, [
        ['Apollo', 'runs_on', 'Nomad'],
        ['Apollo', 'streams_to', 'Kafka'],
      ]);
      await relateEntities(services.executor, {
        id: randomUUID(),
        namespace,
        source: 'apollo',
        target: 'kafka',
        type: 'streams_to',
        confidence: 1,
        actor: 'test',
      });
      return { source, other };
    };

    it('forget takes back the mentions it contributed and deletes a relation left with none', async ({ freshNamespace: ns }) => {
      const namespace = ns('forget-relations');
      const { source, other } = await seedRelations(namespace);
      expect(await relations(namespace)).toEqual([
        { key: 'alice johnson leads apollo', mentions: 1, sources: [source.id] },
        { key: 'apollo runs_on nomad', mentions: 2, sources: [source.id, other.id] },
        { key: 'apollo streams_to kafka', mentions: 2, sources: [other.id] },
      ]);

      await forgetMemory(services.executor, { id: source.id, namespace, actor: 'test' }, 'wrong');

      // Before: all three stayed with their counts; Alice→Apollo was still walked by neighbors and graph boost.
      expect(await relations(namespace)).toEqual([
        { key: 'apollo runs_on nomad', mentions: 1, sources: [other.id] },
        { key: 'apollo streams_to kafka', mentions: 2, sources: [other.id] },
      ]);
      await forgetMemory(services.executor, { id: other.id, namespace, actor: 'test' }, 'wrong too');
      // relate()'s own mention is nobody's memory: it stays.
      expect(await relations(namespace)).toEqual([{ key: 'apollo streams_to kafka', mentions: 1, sources: [] }]);
    });

    it('counts and takes back once when the transactions run twice, and updateMemory takes back too', async ({ freshNamespace: ns }) => {
      const a = ns('relations-once');
      const b = ns('relations-twice');
      const seededA = await seedRelations(a);
      const seededB = await seedRelations(b);
      await forgetMemory(services.executor, { id: seededA.source.id, namespace: a, actor: 'test' }, 'x');
      await forgetMemory(replayed.executor, { id: seededB.source.id, namespace: b, actor: 'test' }, 'x');
      const strip = (rows: Awaited<ReturnType<typeof relations>>) =>
        rows.map((r) => ({ key: r.key, mentions: r.mentions, sources: r.sources?.length }));
      expect(strip(await relations(b))).toEqual(strip(await relations(a)));

      const c = ns('relations-update');
      const seededC = await seedRelations(c);
      await services.update.update({
        id: seededC.source.id,
        namespace: c,
        content: 'Alice Johnson moved to the billing team.',
        actor: 'test',
      });
      expect((await relations(c)).map((r) => `${r.key}:${r.mentions}`)).toEqual(['apollo runs_on nomad:1', 'apollo streams_to kafka:2']);
    });
  });
});
