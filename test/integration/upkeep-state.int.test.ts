import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { closeServices, type Services } from '../../src/app.js';
import { claimMaintenanceRun, claimScheduledRun } from '../../src/db/index.js';
import { FEEDBACK } from '../../src/upkeep/aspect-feedback-service.js';
import { MaintenanceWorker, type MaintenanceReport, type MaintenanceSettings } from '../../src/upkeep/maintenance/index.js';
import { cleanNamespace, testServices, uniqueNamespace } from '../support/services.js';

/**
 * Upkeep state lives in the database, not in the process (db/queries/upkeep-state.ts): the
 * aspect-decay counter ("every N feedback sessions") and pipelineStatus.feedback, and maintenance's
 * cooldowns, hourly budgets and halts, hold across a restart (a new services instance on the same
 * store) and are one for two instances sharing it.
 */

// An aspect no feedback touched for years: the next decay lowers it by decayRate.
const STALE_ASPECT = `
CREATE (a:Aspect {id: $id, namespace: $namespace, entityId: $id, name: 'Role', canonicalName: 'role', weight: 1.0,
  createdAt: '2020-01-01T00:00:00.000Z'})`;
const WEIGHT = `MATCH (a:Aspect {id: $id}) RETURN a.weight AS weight`;

const every = FEEDBACK.decayEverySessions;

describe('upkeep state survives a restart and is one for every replica', () => {
  const opened: Services[] = [];
  const open = () => {
    const services = testServices();
    opened.push(services);
    return services;
  };
  afterAll(async () => {
    for (const s of opened) await closeServices(s).catch(() => undefined);
  });

  const session = (services: Services, namespace: string) =>
    services.upkeep.feedback.apply({ namespace, sessionId: `s-${randomUUID()}`, memoryIds: [], actor: 'test' });

  const seed = async (services: Services) => {
    const namespace = uniqueNamespace('state');
    const aspect = randomUUID();
    await services.executor.write('test.aspect', STALE_ASPECT, { id: aspect, namespace });
    // Read through the instance still open (a restart closes the first one).
    const weight = async (by: Services = opened.at(-1)!) =>
      (await by.executor.read<{ weight: number }>('test.weight', WEIGHT, { id: aspect }))[0]!.weight;
    return { namespace, weight };
  };

  it(`the decay counter goes on after a restart: session ${every} decays, whichever process applies it`, async () => {
    const before = open();
    const { namespace, weight } = await seed(before);
    for (let i = 0; i < every - 3; i += 1) expect((await session(before, namespace)).decayedAspects).toBe(0);
    await closeServices(before);

    const after = open(); // the restarted service: same store, a new process state
    expect((await session(after, namespace)).decayedAspects).toBe(0);
    expect((await session(after, namespace)).decayedAspects).toBe(0);
    expect((await session(after, namespace)).decayedAspects).toBe(1); // session `every`
    expect(await weight()).toBeCloseTo(1 - FEEDBACK.decayRate, 9);
    expect(await after.upkeep.feedback.snapshot(namespace)).toMatchObject({ decayedAspects: 1 });
    await cleanNamespace(after, namespace);
  });

  it('two instances on one Neo4j count one sequence: N concurrent sessions decay exactly once', async () => {
    const a = open();
    const b = open();
    const { namespace, weight } = await seed(a);
    // N sessions at once, split between the instances: the Nth decays, once (in memory, each
    // instance would have counted N/2 and none would decay).
    const results = await Promise.all(Array.from({ length: every }, (_, i) => session(i % 2 === 0 ? a : b, namespace)));
    expect(results.every((r) => r.applied)).toBe(true);
    expect(results.map((r) => r.decayedAspects).sort()).toEqual([...Array.from({ length: every - 1 }, () => 0), 1]);
    expect(await weight()).toBeCloseTo(1 - FEEDBACK.decayRate, 9);
    // Both answer the same telemetry (pipelineStatus.feedback).
    const [fromA, fromB] = [await a.upkeep.feedback.snapshot(namespace), await b.upkeep.feedback.snapshot(namespace)];
    expect(fromA).toEqual(fromB);
    expect(fromA.decayedAspects).toBe(1);
    // Erasing the namespace erases its state: a new namespace of the same name starts at zero.
    await cleanNamespace(a, namespace);
    expect(await b.upkeep.feedback.snapshot(namespace)).toEqual({
      aspectsUpdated: 0,
      ftsConfirmations: 0,
      decayedAspects: 0,
      propagatedAttributes: 0,
    });
  });

  describe('maintenance limits and halts', () => {
    /** A namespace whose tombstone ratio asks for a retention sweep (one of its two memories forgotten). */
    const tombstoned = async (services: Services) => {
      const namespace = uniqueNamespace('state-maint');
      await services.remember.remember({ content: 'The payments gateway retries webhooks for 24 hours.', namespace });
      const gone = await services.remember.remember({ content: 'The old VPN endpoint is vpn1.example.org.', namespace });
      await services.executor.write('test.forget', `MATCH (m:Memory {id: $id}) SET m.deletedAt = $now REMOVE m.dedupKey`, {
        id: gone.memory.id,
        now: new Date().toISOString(),
      });
      return namespace;
    };
    const sweeps: string[] = [];
    const worker = (services: Services, settings: Partial<MaintenanceSettings>) =>
      new MaintenanceWorker(
        services.executor,
        { cooldownMs: 0, hourlyBudget: 100, leaseTimeoutMs: 300_000, ...settings },
        {
          // Nothing is old enough to purge: a sweep that never raises the score.
          retentionSweep: async (namespace) => {
            sweeps.push(namespace ?? '*');
            return 0;
          },
          reembed: () => null,
        },
        services.logger,
      );
    const sweep = (r: MaintenanceReport) => r.actions.find((a) => a.action === 'triggerRetentionSweep')?.outcome;

    it('a restart neither ends a cooldown nor lifts a halt', async () => {
      const before = open();
      const cooled = await tombstoned(before);
      const halting = await tombstoned(before);
      expect(sweep(await worker(before, { cooldownMs: 3_600_000 }).tick('execute', cooled))).toBe('executed');
      const first = worker(before, {});
      const runs = [];
      for (let i = 0; i < 4; i += 1) runs.push(sweep(await first.tick('execute', halting)));
      expect(runs).toEqual(['executed', 'executed', 'executed', 'halted']);
      await closeServices(before);

      const after = open(); // the restarted service: a new process state, the same store
      expect(sweep(await worker(after, { cooldownMs: 3_600_000 }).tick('execute', cooled))).toBe('cooldown');
      const report = await worker(after, {}).tick('execute', halting);
      expect(sweep(report)).toBe('halted');
      expect(report.halted).toEqual(['triggerRetentionSweep']);
      expect(sweeps.filter((n) => n === halting)).toHaveLength(3);
      await cleanNamespace(after, cooled);
      await cleanNamespace(after, halting);
    });

    it('two instances share one hourly budget: concurrent cycles run the sweep once', async () => {
      const a = open();
      const b = open();
      const namespace = await tombstoned(a);
      const reports = await Promise.all([a, b, a, b].map((services) => worker(services, { hourlyBudget: 1 }).tick('execute', namespace)));
      // The others are refused: over budget, or in cooldown for a claim whose clock read came before the winner's.
      const outcomes = reports.map(sweep);
      expect(outcomes.filter((o) => o === 'executed')).toHaveLength(1);
      expect(outcomes.filter((o) => o === 'budget' || o === 'cooldown')).toHaveLength(3);
      expect(sweeps.filter((n) => n === namespace)).toHaveLength(1);
      await cleanNamespace(a, namespace);
    });
  });

  it('a periodic task runs once per interval for every replica, and a restart does not reset its schedule', async () => {
    const a = open();
    const b = open();
    const task = `test-${randomUUID()}`;
    const hour = 3_600_000;
    const start = Date.now();
    const claim = (services: Services, now: number, namespaces: string[] | null = null) =>
      claimScheduledRun(services.executor, { task, namespaces, intervalMs: hour, now });
    // Six replicas' checks at once: one runs the task, the others wait out the rest of the hour.
    const waits = await Promise.all([a, b, a, b, a, b].map((s) => claim(s, start)));
    expect(waits.filter((w) => w === 0)).toHaveLength(1);
    expect(waits.filter((w) => w === hour)).toHaveLength(5);
    await closeServices(a);
    const restarted = open(); // 40 minutes later, a new process: 20 minutes still to wait, not an hour
    expect(await claim(restarted, start + 40 * 60_000)).toBe(20 * 60_000);
    expect(await claim(b, start + hour)).toBe(0);
    expect(await claim(restarted, start + hour + 1)).toBe(hour - 1);
    // A replica scoped to other namespaces keeps its own schedule.
    expect(await claim(b, start + hour + 2, ['team-b', 'team-a'])).toBe(0);
    expect(await claim(restarted, start + hour + 3, ['team-a', 'team-b'])).toBe(hour - 1);
  });
  it('a claim whose transaction runs again (its COMMIT reply lost) answers as the first run did and records one run', async () => {
    const s = open();
    const now = Date.now();
    const task = `test-${randomUUID()}`;
    const hour = 3_600_000;
    const schedule = (claim: string) => claimScheduledRun(s.executor, { task, namespaces: null, intervalMs: hour, now, claim });
    const first = randomUUID();
    expect(await schedule(first)).toBe(0);
    expect(await schedule(first)).toBe(0); // the driver's re-run: still the one that runs the task
    expect(await schedule(randomUUID())).toBe(hour); // another replica: waits the hour

    const limit = { cooldownMs: 60_000, hourlyBudget: 2, haltMs: hour };
    const action = `test-${randomUUID()}`;
    const maintain = (claim: string, at = now) => claimMaintenanceRun(s.executor, { namespace: null, action, now: at, limit, claim });
    const mine = randomUUID();
    expect(await maintain(mine)).toBeNull();
    expect(await maintain(mine)).toBeNull(); // re-run: not refused by its own cooldown
    expect(await maintain(randomUUID())).toBe('cooldown');
    // One run recorded, not two: a second claim after the cooldown fits the budget of 2, a third does not.
    expect(await maintain(randomUUID(), now + 61_000)).toBeNull();
    expect(await maintain(randomUUID(), now + 122_000)).toBe('budget');
  });
});
