import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Services } from '../../src/app.js';
import { retentionSettings } from '../../src/upkeep/retention-loop.js';
import { runRetention } from '../../src/upkeep/retention/index.js';
import { graphqlClient } from '../support/graphql.js';
import { cleanNamespace, testServices, uniqueNamespace } from '../support/services.js';

const DAY = 24 * 60 * 60 * 1000;
const ago = (days: number) => new Date(Date.now() - days * DAY).toISOString();

// Kubernetes is only in the expired memory; PostgreSQL is also in a live one.
const EXPIRED = 'We decided to use Kubernetes and PostgreSQL for the Apollo deployment.';
const LIVE = 'The reporting service stores its data in PostgreSQL.';
const RECENT = 'Grafana dashboards show the Redis latency.';
const LEGACY = 'Terraform provisions the Nomad cluster.';

const RUN = `mutation($ns: String, $all: Boolean, $dry: Boolean) { runRetention(namespace: $ns, allNamespaces: $all, dryRun: $dry) {
  namespace dryRun total durationMs steps { step deleted orphanedEntities orphanedRelations batchFull cutoff } } }`;

interface Step {
  step: string;
  deleted: number;
  orphanedEntities: number;
  orphanedRelations: number;
  batchFull: boolean;
}

describe('retention deletes exactly what has expired', () => {
  let services: Services;
  let gql: Awaited<ReturnType<typeof graphqlClient>>;
  const namespaces: string[] = [];

  const q = <T extends Record<string, unknown>>(cypher: string, params: Record<string, unknown> = {}) =>
    services.executor.read<T>('test.q', cypher, params);
  const w = (cypher: string, params: Record<string, unknown> = {}) => services.executor.write('test.w', cypher, params);

  /** A namespace with one of everything, expired and not. Returns the ids to check. */
  async function seed(ns: string) {
    const expired = (await services.remember.remember({ content: EXPIRED, namespace: ns })).memory;
    const live = (await services.remember.remember({ content: LIVE, namespace: ns })).memory;
    const recent = (await services.remember.remember({ content: RECENT, namespace: ns })).memory;
    const legacy = (await services.remember.remember({ content: LEGACY, namespace: ns })).memory;
    await services.knowledge.relate({ namespace: ns, actor: 'test' }, { source: 'Kubernetes', type: 'hosts', target: 'PostgreSQL' });
    const recentEntities = (
      await q<{ name: string }>(`MATCH (:Memory {id: $id})-[:MENTIONS]->(e) RETURN e.canonicalName AS name`, { id: recent.id })
    ).map((r) => r.name);
    for (const id of [expired.id, recent.id]) await gql.data(`mutation($id: ID!) { forget(id: $id) { id } }`, { id });
    // Forgotten 40 days ago (expired), 10 days ago (kept); the legacy tombstone kept its mentions (older forget).
    await w(`MATCH (m:Memory {id: $id}) SET m.deletedAt = $at`, { id: expired.id, at: ago(40) });
    await w(`MATCH (m:Memory {id: $id}) SET m.deletedAt = $at`, { id: recent.id, at: ago(10) });
    await w(`MATCH (m:Memory {id: $id}) SET m.deletedAt = $at REMOVE m.dedupKey`, { id: legacy.id, at: ago(45) });
    await w(`MATCH (a:Attribute)-[:FROM]->(:Memory {id: $id}) SET a.status = 'superseded'`, { id: legacy.id });
    // Entities the old forget left at zero mentions, untouched since.
    await w(`MATCH (e:Entity {namespace: $ns}) WHERE e.mentions = 0 AND NOT e.canonicalName IN $keep SET e.updatedAt = $at`, {
      ns,
      at: ago(40),
      keep: recentEntities,
    });
    const history = { old: randomUUID(), kept: randomUUID() };
    await w(
      `CREATE (:HistoryEvent {id: $old, namespace: $ns, event: 'test', at: $a}), (:HistoryEvent {id: $kept, namespace: $ns, event: 'test', at: $b})`,
      { ...history, ns, a: ago(200), b: ago(100) },
    );
    const jobs = {
      completedOld: randomUUID(),
      completedNew: randomUUID(),
      deadOld: randomUUID(),
      deadNew: randomUUID(),
      pendingOld: randomUUID(),
    };
    await w(
      `UNWIND $rows AS r CREATE (j:Job {id: r.id, namespace: $ns, kind: 'extract', status: r.status, completedAt: r.completedAt, failedAt: r.failedAt, createdAt: $old, updatedAt: $old})`,
      {
        ns,
        old: ago(300),
        rows: [
          { id: jobs.completedOld, status: 'completed', completedAt: ago(20), failedAt: null },
          { id: jobs.completedNew, status: 'completed', completedAt: ago(5), failedAt: null },
          { id: jobs.deadOld, status: 'dead', completedAt: null, failedAt: ago(40) },
          { id: jobs.deadNew, status: 'dead', completedAt: null, failedAt: ago(10) },
          { id: jobs.pendingOld, status: 'pending', completedAt: null, failedAt: null },
        ],
      },
    );
    return { expired, live, recent, legacy, history, jobs };
  }

  const snapshot = async (ns: string) =>
    (
      await q<{ labels: string[]; n: number }>(
        `MATCH (n) WHERE n.namespace = $ns RETURN labels(n) AS labels, count(*) AS n ORDER BY labels[0]`,
        { ns },
      )
    ).map((r) => `${r.labels.join(':')}=${Number(r.n)}`);

  beforeAll(async () => {
    services = testServices();
    gql = await graphqlClient(services);
  });

  afterAll(async () => {
    for (const ns of namespaces) await cleanNamespace(services, ns);
    await gql.stop();
    await services.stopWorker();
    await (await import('../../src/app.js')).closeServices(services);
  });

  it('runs the six steps in order, deletes the expired records of its namespace only, and a second run deletes nothing', async () => {
    const ns = uniqueNamespace('ret');
    const other = uniqueNamespace('ret-other');
    namespaces.push(ns, other);
    const s = await seed(ns);
    await seed(other);
    const otherBefore = await snapshot(other);

    const chunksOf = async (id: string) =>
      Number((await q<{ n: number }>(`MATCH (:Memory {id: $id})-[:HAS_CHUNK]->(c) RETURN count(c) AS n`, { id }))[0]!.n);
    const legacyMentions = Number(
      (await q<{ n: number }>(`MATCH (:Memory {id: $id})-[r:MENTIONS]->() RETURN count(r) AS n`, { id: s.legacy.id }))[0]!.n,
    );
    const expiredChunks = (await chunksOf(s.expired.id)) + (await chunksOf(s.legacy.id));
    expect(legacyMentions).toBeGreaterThan(0);
    expect(expiredChunks).toBeGreaterThanOrEqual(2);
    const postgresMentions = async () =>
      Number(
        (await q<{ m: number }>(`MATCH (e:Entity {namespace: $ns, canonicalName: 'postgresql'}) RETURN e.mentions AS m`, { ns }))[0]!.m,
      );
    const postgresBefore = await postgresMentions();

    const dry = (await gql.data<{ runRetention: { steps: Step[]; dryRun: boolean } }>(RUN, { ns, dry: true })).runRetention;
    expect(dry.dryRun).toBe(true);
    expect(await snapshot(ns)).toEqual(await snapshot(ns)); // stable
    const byStep = (steps: Step[]) => Object.fromEntries(steps.map((x) => [x.step, x]));
    const d = byStep(dry.steps);
    expect(dry.steps.map((x) => x.step)).toEqual(['graphLinks', 'embeddings', 'tombstones', 'history', 'completedJobs', 'deadJobs']);
    expect([
      d.graphLinks!.deleted,
      d.embeddings!.deleted,
      d.tombstones!.deleted,
      d.history!.deleted,
      d.completedJobs!.deleted,
      d.deadJobs!.deleted,
    ]).toEqual([legacyMentions, expiredChunks, 2, 1, 1, 1]);
    // Nothing was deleted by the dry run.
    expect(await chunksOf(s.expired.id)).toBeGreaterThan(0);

    const run = (await gql.data<{ runRetention: { steps: Step[]; total: number; namespace: string } }>(RUN, { ns })).runRetention;
    expect(run.namespace).toBe(ns);
    const r = byStep(run.steps);
    expect([
      r.graphLinks!.deleted,
      r.embeddings!.deleted,
      r.tombstones!.deleted,
      r.history!.deleted,
      r.completedJobs!.deleted,
      r.deadJobs!.deleted,
    ]).toEqual([legacyMentions, expiredChunks, 2, 1, 1, 1]);
    // Kubernetes (only in the expired memory, related to PostgreSQL) and the legacy memory's entities are orphans.
    expect(r.graphLinks!.orphanedEntities).toBeGreaterThanOrEqual(2);
    expect(r.graphLinks!.orphanedRelations).toBeGreaterThanOrEqual(1);

    const exists = async (label: string, id: string) =>
      Number((await q<{ n: number }>(`MATCH (n {id: $id}) WHERE $label IN labels(n) RETURN count(n) AS n`, { id, label }))[0]!.n) === 1;
    expect(await exists('Memory', s.expired.id)).toBe(false);
    expect(await exists('Memory', s.legacy.id)).toBe(false);
    expect(await exists('Memory', s.recent.id)).toBe(true);
    expect(await chunksOf(s.recent.id)).toBeGreaterThan(0);
    expect(await exists('Memory', s.live.id)).toBe(true);
    expect(await exists('HistoryEvent', s.history.old)).toBe(false);
    expect(await exists('HistoryEvent', s.history.kept)).toBe(true);
    expect(await exists('Job', s.jobs.completedOld)).toBe(false);
    expect(await exists('Job', s.jobs.deadOld)).toBe(false);
    for (const id of [s.jobs.completedNew, s.jobs.deadNew, s.jobs.pendingOld]) expect(await exists('Job', id)).toBe(true);
    const entities = (
      await q<{ name: string; mentions: number }>(
        `MATCH (e:Entity {namespace: $ns}) RETURN e.canonicalName AS name, e.mentions AS mentions`,
        { ns },
      )
    ).map((e) => e.name);
    expect(entities).not.toContain('kubernetes');
    expect(entities).toContain('postgresql'); // still mentioned by the live memory
    expect(await postgresMentions()).toBe(postgresBefore); // the legacy tombstone never mentioned it
    expect(entities).toContain('redis'); // its memory was forgotten 10 days ago only
    expect(entities).not.toContain('terraform'); // emptied by this run's graphLinks step
    expect(Number((await q<{ n: number }>(`MATCH (:Entity {namespace: $ns})-[r:RELATES_TO]-() RETURN count(r) AS n`, { ns }))[0]!.n)).toBe(
      0,
    );
    expect(
      Number(
        (
          await q<{ n: number }>(
            `MATCH (a:Aspect {namespace: $ns}) WHERE NOT EXISTS { (:Entity)-[:HAS_ASPECT]->(a) } RETURN count(a) AS n`,
            { ns },
          )
        )[0]!.n,
      ),
    ).toBe(0);

    // The other namespace is untouched; a repeat deletes nothing.
    expect(await snapshot(other)).toEqual(otherBefore);
    const again = (await gql.data<{ runRetention: { total: number } }>(RUN, { ns })).runRetention;
    expect(again.total).toBe(0);
  }, 300_000);

  it('is batch-limited: a step deletes at most its batch size of rows per run and reports batchFull', async () => {
    const small = { ...retentionSettings(services.config), batchSize: 2 };
    const ns = uniqueNamespace('ret-batch');
    namespaces.push(ns);
    await w(`UNWIND range(1, 3) AS i CREATE (:HistoryEvent {id: randomUUID(), namespace: $ns, event: 'test', at: $at})`, {
      ns,
      at: ago(181),
    });
    const first = await runRetention(services.executor, small, { namespace: ns });
    const history = first.steps.find((x) => x.step === 'history')!;
    expect([history.deleted, history.batchFull]).toEqual([2, true]);
    const second = await runRetention(services.executor, small, { namespace: ns });
    expect(second.steps.find((x) => x.step === 'history')!.deleted).toBe(1);
  });

  it('refuses allNamespaces to a key limited to some namespaces', async () => {
    const keyed = testServices({ API_KEYS: JSON.stringify([{ key: 'k'.repeat(20), name: 'ops', namespaces: ['a-ns'] }]) });
    const client = await graphqlClient(keyed);
    try {
      const result = await client.exec(RUN, { all: true }, { authorization: `Bearer ${'k'.repeat(20)}` });
      expect(result.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    } finally {
      await client.stop();
      await (await import('../../src/app.js')).closeServices(keyed);
    }
  });
});
