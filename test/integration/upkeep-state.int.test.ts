import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { closeServices, type Services } from '../../src/app.js';
import { FEEDBACK } from '../../src/upkeep/aspect-feedback.js';
import { cleanNamespace, testServices, uniqueNamespace } from '../support/services.js';

/**
 * Upkeep state lives in the database, not in the process (db/queries/upkeep-state.ts): the
 * aspect-decay counter ("every N feedback sessions") and pipelineStatus.feedback hold across a
 * restart (a new services instance on the same store) and are one for two instances sharing it.
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
});
