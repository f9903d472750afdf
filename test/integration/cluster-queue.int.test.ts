import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Services } from '../../src/app.js';
import { cachedQueueDepth, extendLease, failJob, leaseJob, releaseStaleLeases } from '../../src/db/jobs/index.js';
import { cleanNamespace, testServices, uniqueNamespace } from '../support/services.js';

const CREATE_JOB = `
CREATE (m:Memory {id: $memoryId, namespace: $namespace, content: 'job target', name: 'job target', createdAt: $at})
CREATE (:Job {id: $id, namespace: $namespace, kind: 'extract', status: 'pending', turn: 0, attempts: 0, maxAttempts: 3,
  availableAt: $at, createdAt: $at, updatedAt: $at, name: 'extract'})-[:FOR]->(m)`;

/** Queue times come from the database's clock: a replica whose own clock is off changes nothing. */
describe('job leases on the database clock', () => {
  let services: Services;
  const namespace = uniqueNamespace('clock');

  beforeAll(() => {
    services = testServices();
  });
  afterEach(() => {
    vi.useRealTimers();
  });
  afterAll(async () => {
    await cleanNamespace(services, namespace);
    await services.executor.close();
  });

  const seed = async () => {
    const id = randomUUID();
    await services.executor.write('test.seed-job', CREATE_JOB, {
      id,
      memoryId: randomUUID(),
      namespace,
      at: new Date(Date.now() - 1000).toISOString(),
    });
    return id;
  };
  const jobRow = async (id: string) =>
    (
      await services.executor.read<{ status: string; leasedAt: string | null; availableAt: string }>(
        'test.job',
        'MATCH (j:Job {id: $id}) RETURN j.status AS status, j.leasedAt AS leasedAt, j.availableAt AS availableAt',
        { id },
      )
    )[0]!;

  it('leases, heartbeats and fails with the database time while this process believes it is the year 2000', async () => {
    const id = await seed();
    const realNow = Date.now();
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2000-01-01T00:00:00Z'));

    const job = await leaseJob(services.executor, 'skewed', ['extract'], { namespaces: [namespace] });
    expect(job?.id).toBe(id);
    const leasedAt = Date.parse((await jobRow(id)).leasedAt!);
    expect(Math.abs(leasedAt - realNow)).toBeLessThan(60_000);

    expect(await extendLease(services.executor, id, 'skewed')).toBe(true);
    expect(Math.abs(Date.parse((await jobRow(id)).leasedAt!) - realNow)).toBeLessThan(60_000);

    expect(await failJob(services.executor, id, 'skewed', 'boom', { attempts: 1, retryBaseMs: 1000 })).toBe('pending');
    expect(Date.parse((await jobRow(id)).availableAt)).toBeGreaterThan(realNow);
  });

  it('a replica whose clock runs an hour ahead does not reap a fresh lease', async () => {
    const id = await seed();
    expect((await leaseJob(services.executor, 'holder', ['extract'], { namespaces: [namespace] }))?.id).toBe(id);
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date(Date.now() + 60 * 60 * 1000));
    await releaseStaleLeases(services.executor, 60_000);
    expect((await jobRow(id)).status).toBe('leased');
  });
});

describe('queue depth for metrics', () => {
  let services: Services;

  beforeAll(() => {
    services = testServices();
  });
  afterAll(() => services.executor.close());

  it('answers from one query per interval, however many scrapes ask', async () => {
    const queries: string[] = [];
    const stop = services.executor.onQuery((e) => queries.push(e.cypher));
    const depth = cachedQueueDepth(services.executor, 60_000);
    const results = await Promise.all(Array.from({ length: 5 }, () => depth()));
    const again = await depth();
    stop();
    expect(queries).toHaveLength(1);
    expect(new Set(results.map((r) => JSON.stringify(r))).size).toBe(1);
    expect(again).toEqual(results[0]);
    expect(results[0]!.pending).toBeGreaterThanOrEqual(0);
  });
});

/** Workers of several replicas: one namespace's extract jobs run one at a time, other namespaces meanwhile. */
describe('at most one extract job per namespace in flight', () => {
  let services: Services;
  const namespaces = [uniqueNamespace('lane'), uniqueNamespace('lane')];

  beforeAll(() => {
    services = testServices();
  });
  afterAll(async () => {
    for (const ns of namespaces) await cleanNamespace(services, ns);
    await services.executor.close();
  });

  const seedIn = async (namespace: string, kind = 'extract') => {
    const id = randomUUID();
    await services.executor.write('test.seed-job', CREATE_JOB.replace("kind: 'extract'", 'kind: $kind'), {
      id,
      memoryId: randomUUID(),
      namespace,
      kind,
      at: new Date(Date.now() - 1000).toISOString(),
    });
    return id;
  };

  it('two claimers racing for two extract jobs of one namespace: one lease, never both (repeated)', async () => {
    const namespace = namespaces[0]!;
    for (let round = 0; round < 8; round++) {
      const ids = [await seedIn(namespace), await seedIn(namespace)];
      const claimed = await Promise.all(
        ['a', 'b'].map((owner) => leaseJob(services.executor, `${owner}-${round}`, ['extract'], { namespaces: [namespace] })),
      );
      const got = claimed.filter((j) => j !== null);
      expect(got, `round ${round}`).toHaveLength(1);
      // While it is leased, nobody gets the other one; once it completes, the other is next.
      expect(await leaseJob(services.executor, 'c', ['extract'], { namespaces: [namespace] })).toBeNull();
      await services.executor.write('test.complete', `MATCH (j:Job {id: $id}) SET j.status = 'completed'`, { id: got[0]!.id });
      const next = await leaseJob(services.executor, 'c', ['extract'], { namespaces: [namespace] });
      expect(next?.id).toBe(ids.find((id) => id !== got[0]!.id));
      await services.executor.write('test.complete', `MATCH (j:Job {id: $id}) SET j.status = 'completed'`, { id: next!.id });
    }
  });

  it('other namespaces and other kinds are not held back by a busy namespace', async () => {
    const [busy, other] = namespaces as [string, string];
    await seedIn(busy);
    await seedIn(busy);
    const hints = await seedIn(busy, 'hints');
    const otherJob = await seedIn(other);
    const first = await leaseJob(services.executor, 'w1', ['extract'], { namespaces: [busy] });
    expect(first).not.toBeNull();
    expect((await leaseJob(services.executor, 'w2', ['extract'], { namespaces: [busy, other] }))?.id).toBe(otherJob);
    expect((await leaseJob(services.executor, 'w3', ['extract', 'hints'], { namespaces: [busy] }))?.id).toBe(hints);
    expect(await leaseJob(services.executor, 'w4', ['extract', 'hints'], { namespaces: [busy] })).toBeNull();
  });
});
