import { randomUUID } from 'node:crypto';
import type { Services } from '../../src/app.js';
import { ValidationError, NotFoundError } from '../../src/errors.js';
import { enqueue, type JobInput } from '../../src/db/jobs/enqueue.js';
import { jobsPage, lastErrors, queueDepth, requeueJob } from '../../src/db/jobs/index.js';
import { completeJob, extendLease, failJob, leaseJob, releaseStaleLeases } from '../../src/db/jobs/index.js';
import { beforeEach, describe, expect, it } from '../support/fixture.js';

const CREATE_JOBS = `
UNWIND $jobs AS j
CREATE (m:Memory {id: j.memoryId, namespace: $namespace, content: 'job target', name: 'job target', createdAt: j.createdAt})
CREATE (job:Job {id: j.id, namespace: $namespace, kind: j.kind, status: 'pending', turn: 0, attempts: 0, maxAttempts: $maxAttempts,
  availableAt: j.createdAt, createdAt: j.createdAt, updatedAt: j.createdAt, name: j.kind})-[:FOR]->(m)`;

describe('job queue operations on the real Neo4j', () => {
  let services: Services;
  let fresh: (prefix: string) => string;
  beforeEach(({ services: fixture, freshNamespace }) => {
    services = fixture;
    fresh = freshNamespace;
  });

  async function seedJobs(
    count: number,
    options: { kind?: string; maxAttempts?: number } = {},
  ): Promise<{ namespace: string; ids: string[] }> {
    const namespace = fresh('queue');
    const base = Date.now() - 60_000;
    const jobs = Array.from({ length: count }, (_, i) => ({
      id: randomUUID(),
      memoryId: randomUUID(),
      kind: options.kind ?? 'extract',
      createdAt: new Date(base + i * 1000).toISOString(),
    }));
    await services.executor.write('test.seed-jobs', CREATE_JOBS, { jobs, namespace, maxAttempts: options.maxAttempts ?? 3 });
    return { namespace, ids: jobs.map((j) => j.id) };
  }

  const lease = (namespace: string, owner: string) => leaseJob(services.executor, owner, ['extract', 'hints'], { namespaces: [namespace] });

  it('five claimers at once on five jobs get five distinct jobs, none twice (repeated)', async () => {
    for (let round = 0; round < 5; round += 1) {
      // hints: extract jobs of one namespace are leased one at a time (cluster-queue.int.test.ts).
      const { namespace, ids } = await seedJobs(5, { kind: 'hints' });
      const owners = Array.from({ length: 5 }, (_, i) => `claimer-${round}-${i}`);
      const claimed = await Promise.all(owners.map((owner) => lease(namespace, owner)));
      expect(claimed.every((j) => j !== null)).toBe(true);
      expect(new Set(claimed.map((j) => j!.id)).size).toBe(5);
      expect(claimed.map((j) => j!.id).sort()).toEqual([...ids].sort());
      claimed.forEach((job, i) => expect(job).toMatchObject({ status: 'leased', attempts: 1, leaseOwner: owners[i] }));
    }
  });

  it('takes turns across namespaces: two new jobs of one namespace behind 60 pending of another are leased within the first few', async () => {
    const [busy, quiet] = [fresh('backlog'), fresh('newcomer')];
    const job = (namespace: string): JobInput => ({ id: randomUUID(), kind: 'hints', namespace, name: 'hints', maxAttempts: 3 });
    const queue = (jobs: JobInput[]) => services.executor.writeTx('test.enqueue', (tx) => enqueue(tx, jobs, new Date().toISOString()));
    // The backlog arrives as an import does (batches), then the newcomer's two memories, one call each.
    for (let batch = 0; batch < 6; batch += 1) await queue(Array.from({ length: 10 }, () => job(busy)));
    const newcomer = [job(quiet), job(quiet)];
    for (const one of newcomer) await queue([one]);
    const leased: string[] = [];
    for (let i = 0; i < 6; i += 1) {
      const got = await leaseJob(services.executor, 'w', ['hints'], { namespaces: [busy, quiet] });
      leased.push(got!.namespace === quiet ? got!.id : 'backlog');
    }
    // Both of the newcomer's jobs within the first four leases, and the backlog keeps draining between them.
    expect(
      leased
        .slice(0, 4)
        .filter((id) => id !== 'backlog')
        .sort(),
    ).toEqual(newcomer.map((j) => j.id).sort());
    expect(leased.filter((id) => id === 'backlog').length).toBe(4);
    // Oldest first, the backlog's 60 would have gone before either.
    const [row] = await services.executor.read<{ pending: number }>(
      'test',
      `MATCH (j:Job {namespace: $busy, status: 'pending'}) RETURN count(j) AS pending`,
      { busy },
    );
    expect(row!.pending).toBe(56);
  });

  it('more claimers than jobs: each job leased exactly once, the rest get null', async () => {
    const { namespace } = await seedJobs(3, { kind: 'hints' });
    const claimed = await Promise.all(Array.from({ length: 8 }, (_, i) => lease(namespace, `c${i}`)));
    const got = claimed.filter((j) => j !== null);
    expect(got).toHaveLength(3);
    expect(new Set(got.map((j) => j!.id)).size).toBe(3);
    const [row] = await services.executor.read<{ leased: number }>(
      'test',
      `MATCH (j:Job {namespace: $namespace, status: 'leased'}) RETURN count(j) AS leased`,
      { namespace },
    );
    expect(row!.leased).toBe(3);
  });

  it('leases the oldest runnable job first and respects kinds and availableAt', async () => {
    const { namespace, ids } = await seedJobs(3);
    await services.executor.write('test', `MATCH (j:Job {id: $id}) SET j.availableAt = $later`, {
      id: ids[0],
      later: new Date(Date.now() + 60_000).toISOString(),
    });
    expect((await lease(namespace, 'w'))!.id).toBe(ids[1]);
    expect(await leaseJob(services.executor, 'w', ['hints'], { namespaces: [namespace] })).toBeNull();
    expect(await leaseJob(services.executor, 'w', [], { namespaces: [namespace] })).toBeNull();
  });

  it('fails back to pending with backoff, then dead at maxAttempts; only the owner may complete', async () => {
    const { namespace, ids } = await seedJobs(1, { maxAttempts: 2 });
    const first = (await lease(namespace, 'w1'))!;
    expect(await failJob(services.executor, first.id, 'someone-else', 'nope', { attempts: 1, retryBaseMs: 0 })).toBeNull();
    expect(
      await failJob(services.executor, first.id, 'w1', 'LlmHttpError: HTTP 500', { attempts: first.attempts, retryBaseMs: 60_000 }),
    ).toBe('pending');
    expect(await lease(namespace, 'w1')).toBeNull(); // backoff: not yet available
    await services.executor.write('test', `MATCH (j:Job {id: $id}) SET j.availableAt = $now`, {
      id: ids[0],
      now: new Date().toISOString(),
    });
    const second = (await lease(namespace, 'w2'))!;
    expect(second.attempts).toBe(2);
    expect(await completeJob(services.executor, second.id, 'w1', { ok: true })).toBe(false);
    expect(await extendLease(services.executor, second.id, 'w2')).toBe(true);
    expect(
      await failJob(services.executor, second.id, 'w2', 'LlmTimeoutError: timed out', { attempts: second.attempts, retryBaseMs: 0 }),
    ).toBe('dead');
    const [row] = await services.executor.read<{ status: string; error: string }>(
      'test',
      `MATCH (j:Job {id: $id}) RETURN j.status AS status, j.error AS error`,
      { id: second.id },
    );
    expect(row).toEqual({ status: 'dead', error: 'LlmTimeoutError: timed out' });
    expect((await lastErrors(services.executor, 5, namespace))[0]).toMatchObject({
      jobId: second.id,
      kind: 'extract',
      error: 'LlmTimeoutError: timed out',
    });
  });

  it('requeues dead and completed jobs only, with a fresh attempt budget', async () => {
    const { namespace } = await seedJobs(2, { maxAttempts: 1 });
    const a = (await lease(namespace, 'w'))!;
    await failJob(services.executor, a.id, 'w', 'boom', { attempts: 1, retryBaseMs: 0 });
    const requeued = await requeueJob(services.executor, a.id, [namespace]);
    expect(requeued).toMatchObject({ id: a.id, status: 'pending', attempts: 0, error: null });
    const b = (await lease(namespace, 'w'))!;
    await expect(requeueJob(services.executor, b.id)).rejects.toBeInstanceOf(ValidationError);
    await expect(requeueJob(services.executor, a.id, ['other-namespace'])).rejects.toBeInstanceOf(NotFoundError);
    await expect(requeueJob(services.executor, randomUUID())).rejects.toBeInstanceOf(NotFoundError);
  });

  it('releases stale leases: pending again, or dead when that was the last attempt', async () => {
    const { namespace, ids } = await seedJobs(2, { maxAttempts: 1, kind: 'hints' });
    await services.executor.write('test', `MATCH (j:Job) WHERE j.id IN $ids SET j.maxAttempts = CASE j.id WHEN $first THEN 3 ELSE 1 END`, {
      ids,
      first: ids[0],
    });
    const leased = [(await lease(namespace, 'crashed'))!, (await lease(namespace, 'crashed'))!];
    const old = new Date(Date.now() - 120_000).toISOString();
    await services.executor.write('test', `MATCH (j:Job) WHERE j.id IN $ids SET j.leasedAt = $old`, { ids: leased.map((j) => j.id), old });
    expect(await releaseStaleLeases(services.executor, 60_000)).toBeGreaterThanOrEqual(2);
    const rows = await services.executor.read<{ id: string; status: string; error: string }>(
      'test',
      `MATCH (j:Job {namespace: $namespace}) RETURN j.id AS id, j.status AS status, j.error AS error`,
      { namespace },
    );
    const byId = new Map(rows.map((r) => [r.id, r]));
    expect(byId.get(ids[0]!)!.status).toBe('pending');
    expect(byId.get(ids[1]!)!.status).toBe('dead');
    expect(byId.get(ids[1]!)!.error).toMatch(/lease expired/);
  });

  it('pages jobs oldest first with an opaque cursor, filters, and counts depth', async () => {
    const { namespace, ids } = await seedJobs(5);
    await lease(namespace, 'w');
    const page1 = await jobsPage(services.executor, { namespace, first: 2 });
    expect(page1.edges.map((e) => e.node.id)).toEqual(ids.slice(0, 2));
    expect(page1.pageInfo.hasNextPage).toBe(true);
    const page2 = await jobsPage(services.executor, { namespace, first: 2, after: page1.pageInfo.endCursor });
    expect(page2.edges.map((e) => e.node.id)).toEqual(ids.slice(2, 4));
    const page3 = await jobsPage(services.executor, { namespace, first: 2, after: page2.pageInfo.endCursor });
    expect(page3.edges.map((e) => e.node.id)).toEqual(ids.slice(4));
    expect(page3.pageInfo).toEqual({ hasNextPage: false, endCursor: page3.edges[0]!.cursor });
    expect(
      (await jobsPage(services.executor, { namespace, status: 'leased', kind: 'extract', first: 10 })).edges.map((e) => e.node.id),
    ).toEqual([ids[0]]);
    expect(page1.edges[0]!.node.memoryId).toEqual(expect.any(String));
    await expect(jobsPage(services.executor, { namespace, first: 2, after: 'garbage!' })).rejects.toBeInstanceOf(ValidationError);
    await expect(jobsPage(services.executor, { namespace, first: 0 })).rejects.toBeInstanceOf(ValidationError);
    await expect(jobsPage(services.executor, { namespace, status: 'sleeping', first: 1 })).rejects.toBeInstanceOf(ValidationError);
    expect(await queueDepth(services.executor, namespace)).toEqual({ pending: 4, leased: 1, completed: 0, dead: 0 });
  });
});
