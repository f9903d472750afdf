import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeServices, type Services } from '../../src/app.js';
import { MaintenanceWorker, type MaintenanceReport } from '../../src/upkeep/maintenance/index.js';
import { graphqlClient } from '../support/graphql.js';
import { cleanNamespace, testServices, uniqueNamespace } from '../support/services.js';

describe('maintenance: diagnose, recommend, repair, halt what does not help', () => {
  let services: Services;
  const ns = uniqueNamespace('maint');

  beforeAll(async () => {
    services = testServices();
    const kept = await services.remember.remember({ content: 'The payments gateway retries webhooks for 24 hours.', namespace: ns });
    await services.remember.remember({ content: 'Support tickets are triaged every morning at nine.', namespace: ns });
    const forgotten = await services.remember.remember({ content: 'The old VPN endpoint is vpn1.example.org.', namespace: ns });
    await services.executor.write('test.forget', `MATCH (m:Memory {id: $id}) SET m.deletedAt = $now REMOVE m.dedupKey`, {
      id: forgotten.memory.id,
      now: new Date().toISOString(),
    });
    await services.executor.write(
      'test.dead',
      `UNWIND $ids AS id MATCH (m:Memory {id: $memory})
       CREATE (j:Job {id: id, namespace: $ns, kind: 'extract', status: 'dead', attempts: 3, maxAttempts: 3, error: 'boom', failedAt: $now, createdAt: $now, updatedAt: $now})-[:FOR]->(m)`,
      { ids: [randomUUID(), randomUUID(), randomUUID()], memory: kept.memory.id, ns, now: new Date().toISOString() },
    );
  });

  afterAll(async () => {
    await cleanNamespace(services, ns);
    await closeServices(services);
  });

  const outcome = (r: MaintenanceReport, action: string) => r.actions.find((a) => a.action === action)?.outcome;
  const deadJobs = async () =>
    Number(
      (
        await services.executor.read<{ n: number }>('test.dead', `MATCH (j:Job {namespace: $ns, status: 'dead'}) RETURN count(j) AS n`, {
          ns,
        })
      )[0]!.n,
    );

  it('observes without changing anything, repairs dead jobs (score up), and halts a retention sweep that never helps after 3 runs', async () => {
    const sweeps: Array<string | null> = [];
    const worker = new MaintenanceWorker(
      services.executor,
      { cooldownMs: 0, hourlyBudget: 100, leaseTimeoutMs: 300_000 },
      {
        retentionSweep: async (namespace) => {
          sweeps.push(namespace);
          return (await services.upkeep.runRetention(namespace, false)).total; // nothing is expired: no help
        },
        reembed: () => null,
      },
      services.logger,
    );

    // The GraphQL call in observe mode: recommendations, nothing executed.
    const gql = await graphqlClient(services);
    const observed = (
      await gql.data<{ runMaintenance: any }>(
        `mutation($ns: String) { runMaintenance(namespace: $ns, mode: observe) { mode scoreDelta after { score } before { score queue { dead deadRate } storage { tombstoneRatio } indexes { online fullTextCoverage vectorCoverage } } actions { action outcome reason } } }`,
        { ns },
      )
    ).runMaintenance;
    await gql.stop();
    expect(observed.before.queue.dead).toBe(3);
    expect(observed.before.indexes).toEqual({ online: true, fullTextCoverage: 1, vectorCoverage: 1 });
    expect(observed.before.storage.tombstoneRatio).toBeCloseTo(1 / 3, 5);
    expect(observed.before.score).toBeLessThan(1);
    expect(observed.actions.map((a: { action: string; outcome: string }) => `${a.action}:${a.outcome}`).sort()).toEqual([
      'requeueDeadJobs:observed',
      'triggerRetentionSweep:observed',
    ]);
    expect(observed.after).toBeNull();
    expect(await deadJobs()).toBe(3);

    const first = await worker.tick('execute', ns);
    expect(outcome(first, 'requeueDeadJobs')).toBe('executed');
    expect(first.actions.find((a) => a.action === 'requeueDeadJobs')!.affected).toBe(3);
    expect(first.after!.score).toBeGreaterThan(first.before.score);
    expect(await deadJobs()).toBe(0);

    const later: MaintenanceReport[] = [];
    for (let i = 0; i < 4; i += 1) later.push(await worker.tick('execute', ns));
    expect(later.map((r) => outcome(r, 'requeueDeadJobs'))).toEqual([undefined, undefined, undefined, undefined]);
    expect(later.map((r) => outcome(r, 'triggerRetentionSweep'))).toEqual(['executed', 'executed', 'executed', 'halted']);
    expect(later.map((r) => r.scoreDelta)).toEqual([0, 0, 0, 0]);
    expect(later[3]!.halted).toEqual(['triggerRetentionSweep']);
    expect(sweeps).toEqual([ns, ns, ns, ns]); // cycle 1 and the three that did not help; never again
  }, 300_000);

  it('rate-limits an action: a second run inside its cooldown is skipped', async () => {
    // A namespace of its own: the one above has its retention sweep halted, in the database.
    const fresh = uniqueNamespace('maint-cooldown');
    await services.remember.remember({ content: 'The staging cluster is rebuilt every Monday.', namespace: fresh });
    const gone = await services.remember.remember({ content: 'The build cache lives on the old NAS.', namespace: fresh });
    await services.executor.write('test.forget', `MATCH (m:Memory {id: $id}) SET m.deletedAt = $now REMOVE m.dedupKey`, {
      id: gone.memory.id,
      now: new Date().toISOString(),
    });
    const worker = new MaintenanceWorker(
      services.executor,
      { cooldownMs: 60 * 60 * 1000, hourlyBudget: 10, leaseTimeoutMs: 300_000 },
      { retentionSweep: async () => 0, reembed: () => null },
      services.logger,
    );
    expect(outcome(await worker.tick('execute', fresh), 'triggerRetentionSweep')).toBe('executed');
    expect(outcome(await worker.tick('execute', fresh), 'triggerRetentionSweep')).toBe('cooldown');
    await cleanNamespace(services, fresh);
  }, 120_000);
});
