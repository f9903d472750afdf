import { randomUUID } from 'node:crypto';
import neo4j, { type Driver } from 'neo4j-driver';
import type { Services } from '../../src/app.js';
import {
  attributeHistory,
  MAX_ASPECTS_PER_ENTITY,
  MAX_ATTRIBUTES_PER_ASPECT,
  MAX_ATTRIBUTES_PER_MEMORY,
  MAX_ENTITIES_PER_MEMORY,
  MAX_HISTORY_PER_MEMORY,
  MAX_RELATIONS_PER_ENTITY,
  MAX_RELATIONS_QUERY,
} from '../../src/db/queries/graph.js';
import { MAX_NEIGHBORHOOD_RELATIONS, neighborhood } from '../../src/db/queries/neighbors.js';
import { countStaleChunks, findStaleChunks, STALE_COUNT_CAP } from '../../src/db/queries/embedding-tracker.js';
import { ASSUMED_LIST_SIZES } from '../../src/graphql/cost-limit.js';
import { jobsPage, lastErrors, llmUsage } from '../../src/db/jobs/index.js';
import { createEntity } from '../support/graph-fixtures.js';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '../support/fixture.js';
import { TEST_NEO4J, TEST_NEO4J_URI } from '../support/test-neo4j.js';

// Long: the fixtures are large on purpose, and the machine is shared.
const SLOW = 180_000;

interface PlanNode {
  operatorType: string;
  arguments: Record<string, unknown>;
  children: PlanNode[];
}

/** Every operator of a plan, with its details (index names, labels), flattened. */
function operators(plan: PlanNode): string[] {
  return [`${plan.operatorType} ${String(plan.arguments.Details ?? '')}`, ...plan.children.flatMap(operators)];
}

/** Sums a profiled plan's database hits, operator by operator. */
function dbHits(plan: { dbHits: number; children: unknown[] }): number {
  return plan.dbHits + plan.children.reduce<number>((sum, child) => sum + dbHits(child as typeof plan), 0);
}

describe('graph reads are bounded whatever the graph holds', () => {
  let services: Services;
  let driver: Driver;

  /** Runs `work`, captures the one Cypher text it ran, and profiles that text with `params`. */
  async function profileOf(work: () => Promise<unknown>, operation: RegExp, params: Record<string, unknown>): Promise<number> {
    const seen: string[] = [];
    const stop = services.executor.onQuery((event) => seen.push(event.cypher));
    try {
      await work();
    } finally {
      stop();
    }
    const cypher = seen.find((c) => operation.test(c));
    if (!cypher) throw new Error(`no query matching ${operation} ran; saw:\n${seen.join('\n---\n')}`);
    const session = driver.session({ defaultAccessMode: neo4j.session.READ });
    try {
      const result = await session.run(`PROFILE ${cypher}`, params);
      return dbHits(result.summary.profile as never);
    } finally {
      await session.close();
    }
  }

  /** Runs `work`, and returns the plan (EXPLAIN) of every Cypher text it ran, with `params`. */
  async function plansOf(work: () => Promise<unknown>, params: Record<string, unknown>): Promise<string[][]> {
    const seen: string[] = [];
    const stop = services.executor.onQuery((event) => seen.push(event.cypher));
    try {
      await work();
    } finally {
      stop();
    }
    const session = driver.session({ defaultAccessMode: neo4j.session.READ });
    try {
      const plans: string[][] = [];
      for (const cypher of seen)
        plans.push(operators((await session.run(`EXPLAIN ${cypher}`, params)).summary.plan as unknown as PlanNode));
      return plans;
    } finally {
      await session.close();
    }
  }

  beforeEach(({ services: fixture }) => void (services = fixture));
  beforeAll(async () => {
    driver = neo4j.driver(
      process.env.TEST_NEO4J_URI ?? TEST_NEO4J_URI,
      neo4j.auth.basic('neo4j', process.env.TEST_NEO4J_PASSWORD ?? TEST_NEO4J.password),
    );
  });
  afterAll(async () => {
    await driver.close();
  });

  it(
    'attributeHistory reads a lattice of SUPERSEDES (2^59 paths) linearly: the newest page, oldest first',
    async ({ graphql: gql, freshNamespace: fresh }) => {
      const ns = fresh('bounded-history');
      const entityId = await createEntity(services, ns, 'Lattice');
      // 60 layers of two attributes, each superseding both of the layer before (what repeated
      // updateMemory calls with two attributes on one aspect produce): 2^59 SUPERSEDES paths.
      const layers = 60;
      await services.executor.write(
        'test.lattice',
        `MATCH (e:Entity {id: $entityId})
         CREATE (e)-[:HAS_ASPECT]->(asp:Aspect {id: randomUUID(), namespace: $ns, entityId: e.id, name: 'Role', canonicalName: 'role', weight: 1.0})
         WITH asp
         UNWIND range(0, $layers - 1) AS layer
         UNWIND [0, 1] AS k
         CREATE (asp)-[:HAS_ATTRIBUTE]->(:Attribute {
           id: 'L' + right('000' + toString(layer), 3) + '-' + k + '-' + $ns, namespace: $ns, layer: layer,
           content: 'value ' + layer + '.' + k, kind: 'attribute', importance: 0.5, confidence: 1.0,
           status: CASE WHEN layer = $layers - 1 THEN 'active' ELSE 'superseded' END,
           validFrom: toString(datetime({epochMillis: 1700000000000 + layer * 1000})),
           validTo: CASE WHEN layer = $layers - 1 THEN null ELSE toString(datetime({epochMillis: 1700000001000 + layer * 1000})) END })`,
        { entityId, ns, layers: neo4j.int(layers) },
      );
      await services.executor.write(
        'test.lattice-links',
        `MATCH (newer:Attribute {namespace: $ns}), (old:Attribute {namespace: $ns}) WHERE newer.layer = old.layer + 1
         CREATE (newer)-[:SUPERSEDES {method: 'update'}]->(old)`,
        { ns },
      );

      // Before: the COUNT of SUPERSEDES* paths ran into the read timeout (TIMEOUT).
      const rows = await attributeHistory(services.executor, entityId, 'Role', 100);
      expect(rows).toHaveLength(100); // 120 attributes, the page is 100
      const layerOf = (id: string) => Number(id.slice(1, 4));
      expect(layerOf(rows[0]!.id)).toBe(10); // the 20 oldest are cut
      expect(rows.map((r) => layerOf(r.id))).toEqual([...rows.map((r) => layerOf(r.id))].sort((a, b) => a - b));
      expect(rows.slice(-2).map((r) => r.status)).toEqual(['active', 'active']);
      expect(rows.slice(-2).every((r) => r.supersedesId !== null)).toBe(true);

      // Linear: the plan touches each attribute a few times, never a path per chain.
      const hits = await profileOf(() => attributeHistory(services.executor, entityId, 'role', 100), /SUPERSEDES|HAS_ATTRIBUTE/, {
        entityId,
        aspect: 'role',
        limit: 100,
      });
      expect(hits).toBeLessThan(120 * 60);

      // Through GraphQL the page is MAX_PAGE_SIZE, priced at the same size.
      expect(ASSUMED_LIST_SIZES['Query.attributeHistory']).toBeGreaterThanOrEqual(100);
      const { attributeHistory: viaApi } = await gql.data(
        `query ($id: ID!) { attributeHistory(entityId: $id, aspect: "ROLE") { id status } }`,
        { id: entityId },
      );
      expect(viaApi).toHaveLength(Math.min(100, services.config.MAX_PAGE_SIZE));
    },
    SLOW,
  );

  it(
    'neighbors(depth: 2) walks hop by hop: 700×700 parallel relations cost their count, not their 490,000 paths',
    async ({ freshNamespace: fresh }) => {
      const ns = fresh('bounded-neighbors');
      const [center, middle, far] = [
        await createEntity(services, ns, 'Center'),
        await createEntity(services, ns, 'Middle'),
        await createEntity(services, ns, 'Far'),
      ];
      const parallel = 700;
      // Relation types are caller-chosen strings (relate), so one pair can hold hundreds of relations.
      await services.executor.write(
        'test.parallel',
        `MATCH (c:Entity {id: $center}), (m:Entity {id: $middle}), (f:Entity {id: $far})
         UNWIND range(1, $n) AS i
         CREATE (c)-[:RELATES_TO {type: 'uses_' + i, strength: 1.0, confidence: 1.0, mentions: 1 + i % 5}]->(m)
         CREATE (m)-[:RELATES_TO {type: 'calls_' + i, strength: 1.0, confidence: 1.0, mentions: 1 + i % 3}]->(f)`,
        { center, middle, far, n: neo4j.int(parallel) },
      );

      // Before: every *1..2 path was enumerated before the LIMIT and the read timed out (TIMEOUT).
      const rows = await neighborhood(services.executor, center, 2);
      expect(rows!.relations).toHaveLength(MAX_NEIGHBORHOOD_RELATIONS);
      // The center's own relations come first (hop 1 fills the page here), the most mentioned first.
      expect(rows!.relations.every((r) => r.sourceId === center && r.targetId === middle)).toBe(true);
      expect(rows!.relations[0]!.mentions).toBe(5);
      expect(rows!.entities.map((e) => e.id)).toEqual([middle]);

      const hits = await profileOf(() => neighborhood(services.executor, center, 2), /RELATES_TO/, {
        id: center,
        limit: MAX_NEIGHBORHOOD_RELATIONS,
      });
      expect(hits).toBeLessThan(40 * 2 * parallel); // tens of hits per relation, not per path

      // A hub whose neighbours have hundreds of relations each: hop 2 is cut per neighbour and in total.
      const hub = fresh('bounded-hub');
      const hubId = await createEntity(services, hub, 'Hub');
      await services.executor.write(
        'test.hub',
        `MATCH (h:Entity {id: $hubId})
         UNWIND range(1, 20) AS i
         CREATE (h)-[:RELATES_TO {type: 'has', mentions: 1}]->(n:Entity {id: randomUUID(), namespace: $ns, name: 'N' + i, canonicalName: 'n' + i, mentions: 0})
         WITH n
         UNWIND range(1, 200) AS j
         CREATE (n)-[:RELATES_TO {type: 'links', mentions: 1}]->(:Entity {id: randomUUID(), namespace: $ns, name: n.name + '.' + j, canonicalName: n.canonicalName + '.' + j, mentions: 0})`,
        { hubId, ns: hub },
      );
      const two = await neighborhood(services.executor, hubId, 2);
      expect(two!.relations).toHaveLength(MAX_NEIGHBORHOOD_RELATIONS);
      expect(two!.relations.filter((r) => r.sourceId === hubId)).toHaveLength(20); // every hop-1 relation, then hop 2
      expect(two!.entities.length).toBeLessThanOrEqual(MAX_NEIGHBORHOOD_RELATIONS);
      expect(ASSUMED_LIST_SIZES['Neighborhood.relations']).toBeGreaterThanOrEqual(MAX_NEIGHBORHOOD_RELATIONS);
      expect(ASSUMED_LIST_SIZES['Neighborhood.entities']).toBeGreaterThanOrEqual(MAX_NEIGHBORHOOD_RELATIONS);
    },
    SLOW,
  );

  it(
    'every relationship list is capped at its named constant, and priced at least at that size',
    async ({ graphql: gql, freshNamespace: fresh }) => {
      const ns = fresh('bounded-lists');
      const memoryId = randomUUID();
      const entityId = randomUUID();
      const n = 60;
      const ats = Array.from({ length: n }, (_, i) => new Date(1700000000000 + (i + 1) * 1000).toISOString());
      // One memory mentioning 60 entities, with 60 attributes and 60 history events; one entity
      // with 60 aspects and 60 relations; one aspect with 60 attributes (2 of them active).
      await services.executor.write(
        'test.wide',
        `CREATE (m:Memory {id: $memoryId, namespace: $ns, content: 'wide', contentHash: 'wide', type: 'fact', importance: 0.5, tags: [],
                           createdAt: '2026-01-01T00:00:00.000Z', accessCount: 0, temporal: 'persistent', pinned: false})
         CREATE (e:Entity {id: $entityId, namespace: $ns, name: 'Wide', canonicalName: 'wide', type: 'concept', mentions: 1})
         CREATE (m)-[:MENTIONS]->(e)
         CREATE (e)-[:HAS_ASPECT]->(main:Aspect {id: randomUUID(), namespace: $ns, entityId: $entityId, name: 'Main', canonicalName: 'main', weight: 100.0})
         WITH m, e, main
         UNWIND range(1, $n) AS i
         CREATE (m)-[:MENTIONS]->(o:Entity {id: randomUUID(), namespace: $ns, name: 'Other ' + i, canonicalName: 'other ' + i, type: 'concept', mentions: i})
         CREATE (e)-[:RELATES_TO {type: 'knows', mentions: i}]->(o)
         CREATE (e)-[:HAS_ASPECT]->(:Aspect {id: randomUUID(), namespace: $ns, entityId: $entityId, name: 'Aspect ' + i, canonicalName: 'aspect ' + i, weight: 1.0})
         CREATE (main)-[:HAS_ATTRIBUTE]->(a:Attribute {id: randomUUID(), namespace: $ns, content: 'fact ' + i, kind: 'attribute',
                  status: CASE WHEN i > $n - 2 THEN 'active' ELSE 'superseded' END,
                  validFrom: toString(datetime({epochMillis: 1700000000000 + i * 1000}))})
         CREATE (a)-[:FROM]->(m)
         CREATE (:HistoryEvent {id: randomUUID(), namespace: $ns, event: 'note', at: $ats[i - 1]})-[:ABOUT]->(m)`,
        { memoryId, entityId, ns, n: neo4j.int(n), ats },
      );

      const { memory, entity, relations } = await gql.data(
        `query ($m: ID!, $e: ID!) {
           memory(id: $m) { entities { mentions } attributes { status } history { at } }
           entity(id: $e) { aspects { name attributes { status } all: attributes(includeSuperseded: true) { content } } relations { type } }
           relations(entityId: $e) { type }
         }`,
        { m: memoryId, e: entityId },
      );
      expect(memory.entities).toHaveLength(MAX_ENTITIES_PER_MEMORY);
      expect(memory.entities[0].mentions).toBe(n); // the most mentioned kept
      expect(memory.attributes).toHaveLength(MAX_ATTRIBUTES_PER_MEMORY);
      expect(memory.attributes.filter((a: { status: string }) => a.status === 'active')).toHaveLength(2); // active ones never cut first
      expect(memory.history).toHaveLength(MAX_HISTORY_PER_MEMORY);
      expect(memory.history.map((h: { at: string }) => new Date(h.at).toISOString())).toEqual(ats.slice(-MAX_HISTORY_PER_MEMORY)); // the newest kept, oldest first
      expect(entity.aspects).toHaveLength(MAX_ASPECTS_PER_ENTITY);
      const main = entity.aspects[0];
      expect(main.name).toBe('Main');
      expect(main.attributes).toEqual([{ status: 'active' }, { status: 'active' }]);
      expect(main.all).toHaveLength(MAX_ATTRIBUTES_PER_ASPECT);
      expect(entity.relations).toHaveLength(MAX_RELATIONS_PER_ENTITY);
      expect(relations).toHaveLength(MAX_RELATIONS_QUERY); // one entity asked for: a longer list than Entity.relations

      for (const [field, cap] of [
        ['Memory.entities', MAX_ENTITIES_PER_MEMORY],
        ['Memory.attributes', MAX_ATTRIBUTES_PER_MEMORY],
        ['Memory.history', MAX_HISTORY_PER_MEMORY],
        ['Entity.aspects', MAX_ASPECTS_PER_ENTITY],
        ['Aspect.attributes', MAX_ATTRIBUTES_PER_ASPECT],
        ['Entity.relations', MAX_RELATIONS_PER_ENTITY],
        ['Query.relations', MAX_RELATIONS_QUERY],
      ] as const) {
        expect(ASSUMED_LIST_SIZES[field], field).toBeGreaterThanOrEqual(cap);
      }
    },
    SLOW,
  );

  it(
    'job reads seek an index for every filter combination: no AllNodesScan or NodeByLabelScan on Job',
    async ({ freshNamespace: fresh }) => {
      const ns = fresh('bounded-jobs');
      const params = { namespace: ns, status: 'dead', kind: 'extract', afterCreatedAt: '', afterId: '', limit: neo4j.int(10) };
      const reads: Array<[string, () => Promise<unknown>]> = [
        ['jobs page', () => jobsPage(services.executor, { namespace: ns, first: 10 })],
        ['jobs page by status', () => jobsPage(services.executor, { namespace: ns, status: 'dead', first: 10 })],
        ['jobs page by kind, after a cursor', () => jobsPage(services.executor, { namespace: ns, kind: 'extract', first: 10 })],
        ['jobs page of every namespace', () => jobsPage(services.executor, { first: 10 })],
        ['jobs page of every namespace by status', () => jobsPage(services.executor, { status: 'pending', first: 10 })],
        ['last errors', () => lastErrors(services.executor, 10, ns)],
        ['last errors of every namespace', () => lastErrors(services.executor, 10)],
        ['llm usage', () => llmUsage(services.executor, ns)],
        ['llm usage of every namespace', () => llmUsage(services.executor)],
      ];
      for (const [name, work] of reads) {
        const plans = await plansOf(work, params);
        expect(plans.length, name).toBeGreaterThan(0);
        for (const plan of plans) {
          expect(
            plan.filter((op) => /AllNodesScan|NodeByLabelScan/.test(op)),
            `${name}:\n${plan.join('\n')}`,
          ).toEqual([]);
          expect(
            plan.some((op) => /^NodeIndex.*:Job\(/.test(op)),
            `${name} seeks a Job index:\n${plan.join('\n')}`,
          ).toBe(true);
        }
      }
    },
    SLOW,
  );

  it(
    "the embedding tracker's stale-chunk reads seek chunk_embedding_model: no Chunk or Memory scan, few hits on a converged store",
    async ({ freshNamespace: fresh }) => {
      const ns = fresh('bounded-tracker');
      for (const content of [
        'The build cache lives on the second disk.',
        'Payroll runs on the last Friday of the month.',
        'The staging cluster has three nodes in Falkenstein.',
      ]) {
        await services.remember.remember({ content, namespace: ns });
      }
      const model = services.embedder.modelId;
      const reads: Array<[string, () => Promise<unknown>]> = [
        ['stale chunks', () => findStaleChunks(services.executor, { model, namespaces: [ns] }, 10)],
        ['stale chunks of every namespace', () => findStaleChunks(services.executor, { model, namespaces: null }, 10)],
        ['stale count', () => countStaleChunks(services.executor, { model, namespaces: null })],
      ];
      const params = { model, namespaces: null, limit: neo4j.int(10), cap: neo4j.int(STALE_COUNT_CAP) };
      for (const [name, work] of reads) {
        const plans = await plansOf(work, params);
        expect(plans.length, name).toBe(1);
        for (const plan of plans) {
          expect(
            plan.filter((op) => /AllNodesScan|NodeByLabelScan|RelationshipTypeScan/.test(op)),
            `${name}:\n${plan.join('\n')}`,
          ).toEqual([]);
          expect(
            plan.filter((op) => /^NodeIndexSeekByRange\S* .*:Chunk\(embeddingModel\)/.test(op)),
            `${name} seeks the model index:\n${plan.join('\n')}`,
          ).toHaveLength(2);
        }
      }
      // Nothing stale under the model that wrote the chunks: the read costs hits in proportion to
      // the stale chunks of the database (other files' may be there), not to all its chunks.
      expect(await findStaleChunks(services.executor, { model, namespaces: [ns] }, 10)).toEqual([]);
      const [counts] = await services.executor.read<{ chunks: number; stale: number }>(
        't',
        `MATCH (c:Chunk) RETURN count(c) AS chunks, count(CASE WHEN c.embeddingModel <> $model THEN 1 END) AS stale`,
        { model },
      );
      expect(Number(counts!.chunks)).toBeGreaterThanOrEqual(3);
      const hits = await profileOf(() => findStaleChunks(services.executor, { model, namespaces: [ns] }, 10), /embeddingModel < \$model/, {
        model,
        namespaces: [ns],
        limit: neo4j.int(10),
      });
      expect(hits).toBeLessThan(20 + 8 * Number(counts!.stale));
    },
    SLOW,
  );

  it(
    'pipelineStatus shares its aggregates for a few seconds: 10 calls run the usage and error queries once',
    async ({ graphql: gql, freshNamespace: fresh }) => {
      const ns = fresh('bounded-status');
      const seen: string[] = [];
      const stop = services.executor.onQuery((event) => seen.push(event.cypher));
      try {
        const STATUS = `query ($ns: String) { pipelineStatus(namespace: $ns) { queue { pending } lastErrors { jobId } llm { tokensPerMemory } } }`;
        await Promise.all(Array.from({ length: 5 }, () => gql.data(STATUS, { ns })));
        for (let i = 0; i < 5; i += 1) await gql.data(STATUS, { ns });
      } finally {
        stop();
      }
      expect(seen.filter((c) => c.includes('llmCalls > 0') && c.includes('count(DISTINCT m)'))).toHaveLength(1);
      expect(seen.filter((c) => c.includes('j.failedAt IS NOT NULL'))).toHaveLength(1);
      expect(seen.filter((c) => c.includes('UNWIND $statuses AS status'))).toHaveLength(10); // queue counts stay live
    },
    SLOW,
  );
});
