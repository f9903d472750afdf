import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Services } from '../../src/app.js';
import { graphqlClient } from '../support/graphql.js';
import { cleanNamespace, testServices, uniqueNamespace } from '../support/services.js';

const JOBS = `
query ($ns: String, $status: JobStatus, $kind: JobKind, $first: Int, $after: String) {
  jobs(namespace: $ns, status: $status, kind: $kind, first: $first, after: $after) {
    edges { cursor node { id kind status attempts maxAttempts error memory { id } } }
    pageInfo { hasNextPage endCursor }
  }
}`;

const STATUS = `
query ($ns: String) {
  pipelineStatus(namespace: $ns) {
    queue { pending leased completed dead }
    worker { running workerId processed failed mode llmAvailable }
    lastErrors { jobId kind error at }
    feedback { aspectsUpdated ftsConfirmations decayedAspects propagatedAttributes }
  }
}`;

describe('jobs, pipelineStatus and requeueJob', () => {
  let services: Services;
  let gql: Awaited<ReturnType<typeof graphqlClient>>;
  const ns = uniqueNamespace('jobs');
  const memoryIds: string[] = [];

  beforeAll(async () => {
    services = testServices({ DEFAULT_NAMESPACE: ns });
    await services.embedder.load();
    gql = await graphqlClient(services);
    for (const content of [
      'Invoices are generated on the last business day.',
      'The mobile app supports offline mode since version four.',
      'Design reviews happen every Thursday at noon.',
    ]) {
      memoryIds.push(
        (await gql.data(`mutation ($c: String!) { remember(input: { content: $c }) { memory { id } } }`, { c: content })).remember.memory
          .id,
      );
    }
  });
  afterAll(async () => {
    await cleanNamespace(services, ns);
    await gql.stop();
    await services.executor.close();
  });

  it('lists the queued jobs oldest first with their memory, filtered and paged', async () => {
    const all = (await gql.data(JOBS, { first: 10 })).jobs; // the default namespace
    expect(all.edges.map((e: any) => e.node.memory.id)).toEqual(memoryIds);
    expect(all.edges.every((e: any) => e.node.kind === 'extract' && e.node.status === 'pending' && e.node.attempts === 0)).toBe(true);

    const first = (await gql.data(JOBS, { ns, first: 2 })).jobs;
    expect(first.pageInfo.hasNextPage).toBe(true);
    const rest = (await gql.data(JOBS, { ns, first: 2, after: first.pageInfo.endCursor })).jobs;
    expect(rest.pageInfo.hasNextPage).toBe(false);
    expect([...first.edges, ...rest.edges].map((e: any) => e.node.id)).toEqual(all.edges.map((e: any) => e.node.id));

    expect((await gql.data(JOBS, { ns, first: 10, status: 'dead' })).jobs.edges).toEqual([]);
    expect((await gql.data(JOBS, { ns, first: 10, kind: 'hints' })).jobs.edges).toEqual([]);
    expect((await gql.exec(JOBS, { ns, first: 2, after: 'nope' })).errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect((await gql.exec(JOBS, { ns, first: services.config.MAX_PAGE_SIZE + 1 })).errors?.[0]?.extensions?.code).toBe('LIMIT_EXCEEDED');
  });

  it('reports queue depth, recent errors and worker state, and requeues a dead job', async () => {
    const jobs = (await gql.data(JOBS, { ns, first: 10 })).jobs.edges.map((e: any) => e.node.id);
    const dead = jobs[0];
    await services.executor.write(
      'test.kill',
      `MATCH (j:Job {id: $id}) SET j.status = 'dead', j.attempts = 3, j.error = 'ollama unreachable', j.failedAt = $now, j.updatedAt = $now`,
      { id: dead, now: new Date().toISOString() },
    );
    await services.executor.write(`test.complete`, `MATCH (j:Job {id: $id}) SET j.status = 'completed'`, { id: jobs[1] });

    const status = (await gql.data(STATUS, { ns })).pipelineStatus;
    expect(status.queue).toEqual({ pending: 1, leased: 0, completed: 1, dead: 1 });
    expect(status.lastErrors).toEqual([expect.objectContaining({ jobId: dead, kind: 'extract', error: 'ollama unreachable' })]);
    expect(status.worker).toMatchObject({ running: false, processed: 0, failed: 0 });
    expect(status.feedback).toEqual({ aspectsUpdated: 0, ftsConfirmations: 0, decayedAspects: 0, propagatedAttributes: 0 });

    const REQUEUE = `mutation ($id: ID!) { requeueJob(id: $id) { id status attempts error memory { id } } }`;
    const { requeueJob } = await gql.data(REQUEUE, { id: dead });
    expect(requeueJob).toEqual({ id: dead, status: 'pending', attempts: 0, error: null, memory: { id: memoryIds[0] } });
    expect((await gql.data(STATUS, { ns })).pipelineStatus.queue).toEqual({ pending: 2, leased: 0, completed: 1, dead: 0 });

    expect((await gql.exec(REQUEUE, { id: jobs[2] })).errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT'); // still pending
    expect((await gql.exec(REQUEUE, { id: randomUUID() })).errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
  });
});
