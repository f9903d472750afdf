import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeServices, type Services } from '../../src/app.js';
import { loadConfig } from '../../src/config/index.js';
import { ACTION_LIMITS, MaintenanceWorker, type MaintenanceReport } from '../../src/upkeep/maintenance/index.js';
import { cleanNamespace, testServices, uniqueNamespace } from '../support/services.js';

const DAY = 86_400_000;

describe('upkeep that runs itself: per-action maintenance limits, auto actions, the compression threshold', () => {
  let services: Services;
  const ns = uniqueNamespace('selfrun');
  const old = uniqueNamespace('selfrun-old');

  beforeAll(async () => {
    services = testServices({ COMPRESSION_AUTO_MIN_SESSIONS: '3', COMPRESSION_AUTO_AGE_DAYS: '30' });
    const kept = await services.remember.remember({ content: 'The payments gateway retries webhooks for 24 hours.', namespace: ns });
    const forgotten = await services.remember.remember({ content: 'The old VPN endpoint is vpn1.example.org.', namespace: ns });
    await services.executor.write('test.forget', `MATCH (m:Memory {id: $id}) SET m.deletedAt = $now REMOVE m.dedupKey`, {
      id: forgotten.memory.id,
      now: new Date().toISOString(),
    });
    await services.executor.write(
      'test.dead',
      `UNWIND $ids AS id MATCH (m:Memory {id: $memory})
       CREATE (j:Job {id: id, namespace: $ns, kind: 'extract', status: 'dead', attempts: 3, maxAttempts: 3, error: 'boom', failedAt: $now, createdAt: $now, updatedAt: $now})-[:FOR]->(m)`,
      { ids: [randomUUID(), randomUUID()], memory: kept.memory.id, ns, now: new Date().toISOString() },
    );
  });

  afterAll(async () => {
    await cleanNamespace(services, ns);
    await cleanNamespace(services, old);
    await closeServices(services);
  });

  const outcome = (r: MaintenanceReport, action: string) => r.actions.find((a) => a.action === action)?.outcome;

  it('is on by default: maintenance every 30 min in execute mode for the safe repairs, decay hourly, compression every 6 h', () => {
    const config = loadConfig({ NEO4J_PASSWORD: 'irrelevant-here' });
    expect(config).toMatchObject({
      MAINTENANCE_INTERVAL_MS: 30 * 60_000,
      MAINTENANCE_MODE: 'execute',
      DECAY_INTERVAL_MS: 3_600_000,
      COMPRESSION_AUTO_INTERVAL_MS: 6 * 3_600_000,
      SESSIONS_ENABLED: true,
    });
    expect(config.MAINTENANCE_AUTO_ACTIONS).toEqual(['releaseStaleLeases', 'reembedMissingVectors', 'triggerRetentionSweep']);
    // One setting turns each off.
    expect(
      loadConfig({
        NEO4J_PASSWORD: 'irrelevant-here',
        MAINTENANCE_INTERVAL_MS: '0',
        DECAY_INTERVAL_MS: '0',
        COMPRESSION_AUTO_INTERVAL_MS: '0',
        SESSION_IDLE_TIMEOUT_MS: '0',
      }),
    ).toMatchObject({ MAINTENANCE_INTERVAL_MS: 0, DECAY_INTERVAL_MS: 0, COMPRESSION_AUTO_INTERVAL_MS: 0, SESSION_IDLE_TIMEOUT_MS: 0 });
  });

  it('each action has its own cooldown and budget; a scheduled cycle executes only the auto actions', async () => {
    let sweeps = 0;
    const worker = new MaintenanceWorker(
      services.executor,
      // The fallback would allow one sweep an hour; the sweep's own limit allows two, back to back.
      {
        cooldownMs: 3_600_000,
        hourlyBudget: 1,
        leaseTimeoutMs: 300_000,
        actionLimits: { ...ACTION_LIMITS, triggerRetentionSweep: { cooldownMs: 0, hourlyBudget: 2 } },
        autoActions: ['triggerRetentionSweep'],
      },
      {
        retentionSweep: async () => {
          sweeps += 1;
          return 1;
        },
        reembed: () => null,
      },
      services.logger,
    );
    const scheduled = await worker.tick('execute', ns, { scheduled: true });
    expect(outcome(scheduled, 'requeueDeadJobs')).toBe('observed'); // not an auto action
    expect(outcome(scheduled, 'triggerRetentionSweep')).toBe('executed');
    expect(outcome(await worker.tick('execute', ns, { scheduled: true }), 'triggerRetentionSweep')).toBe('executed');
    expect(outcome(await worker.tick('execute', ns, { scheduled: true }), 'triggerRetentionSweep')).toBe('budget');
    expect(sweeps).toBe(2);
    // An operator's cycle runs every recommended action, within that action's own limits.
    const manual = await worker.tick('execute', ns);
    expect(outcome(manual, 'requeueDeadJobs')).toBe('executed');
    expect(ACTION_LIMITS.requeueDeadJobs).toEqual({ cooldownMs: 60_000, hourlyBudget: 50 });
  }, 120_000);

  it('starts compression once a namespace holds enough old uncompressed sessions, and not before', async () => {
    const occurred = (days: number) => new Date(Date.now() - days * DAY).toISOString();
    const write = async (sessionId: string, days: number) => {
      for (const turn of ['We talked about the exporter schedule.', 'The exporter moved to Tuesdays.']) {
        await services.remember.remember(
          { content: `${turn} (${sessionId})`, namespace: old, type: 'episodic', sessionId, occurredAt: occurred(days) },
          { actor: 'test' },
        );
      }
    };
    await write('s-1', 60);
    await write('s-2', 50);
    await write('s-3', 5); // recent: does not count
    expect(await services.sessionUpkeep.checkCompression([old])).toBe(0);
    await write('s-4', 40);
    // The oldest half of the threshold (3 / 2 → 1), as the design takes them; the rest wait for the next check.
    expect(await services.sessionUpkeep.checkCompression([old])).toBe(1);
    const jobs = await services.executor.read<{ sessionId: string }>(
      'test',
      `MATCH (j:Job {namespace: $ns, kind: 'compress'}) RETURN j.sessionId AS sessionId ORDER BY sessionId`,
      { ns: old },
    );
    expect(jobs.map((j) => j.sessionId)).toEqual(['s-1']);
    // While the namespace stays over the threshold (s-1 is not compressed yet), each check takes the
    // next oldest half; a session already queued is never queued twice.
    expect(await services.sessionUpkeep.checkCompression([old])).toBe(1);
    expect(await services.sessionUpkeep.checkCompression([old])).toBe(1);
    expect(await services.sessionUpkeep.checkCompression([old])).toBe(0);
    const all = await services.executor.read<{ sessionId: string }>(
      'test',
      `MATCH (j:Job {namespace: $ns, kind: 'compress'}) RETURN j.sessionId AS sessionId ORDER BY sessionId`,
      { ns: old },
    );
    expect(all.map((j) => j.sessionId)).toEqual(['s-1', 's-2', 's-4']);
    expect(services.sessionUpkeep.snapshot().lastCompressionCheckAt).toBeTruthy();
  }, 120_000);
});
