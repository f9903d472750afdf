import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CYPHER_DIR } from '../../src/app.js';
import { createDriver, Executor, migrate } from '../../src/db/index.js';
import { loadMigrations, MIGRATION_LOCK_ID } from '../../src/db/schema-migrations.js';
import { createLogger } from '../../src/logger.js';
import { startNeo4j, stopNeo4j } from '../../scripts/neo4j-server.mjs';
import { spawnReplica, type ServiceProcess } from '../support/processes.js';

// A Neo4j of this test's own, with an EMPTY database: the first start of a fresh deployment.
const NEO4J = {
  home: join(fileURLToPath(new URL('../../.neo4j/', import.meta.url)), 'cluster-test'),
  boltPort: 47687,
  httpPort: 47474,
  password: 'cluster-startup-pw',
  heapMb: 512,
  pageCacheMb: 128,
  // A cold JVM on a loaded 2-core machine can take more than the default 120 s.
  timeoutMs: 300_000,
};
const URI = `bolt://127.0.0.1:${NEO4J.boltPort}`;
const REPLICAS = 4;
const FIRST_PORT = 48001;

const MIGRATIONS = `MATCH (m:SchemaMigration) RETURN m.version AS version, m.appliedBy AS appliedBy ORDER BY version`;
const LOCK = `MATCH (l:Lock {id: $id}) RETURN l.owner AS owner, count(*) AS n`;

describe('N replicas started at once on an empty database', () => {
  let executor: Executor;
  const replicas: ServiceProcess[] = [];

  beforeAll(async () => {
    await stopNeo4j(NEO4J);
    await rm(join(NEO4J.home, 'data'), { recursive: true, force: true });
    await startNeo4j(NEO4J);
    executor = new Executor(
      createDriver({ uri: URI, user: 'neo4j', password: NEO4J.password, database: 'neo4j' }),
      'neo4j',
      createLogger('silent'),
    );
  }, 300_000);

  afterAll(async () => {
    await Promise.all(replicas.map((r) => r.stop()));
    await executor?.close();
    await stopNeo4j(NEO4J);
  }, 180_000);

  it('all become ready, and the migrations ran exactly once, by one of them', async () => {
    const [empty] = await executor.read<{ n: number }>('test.count', 'MATCH (n) RETURN count(n) AS n');
    expect(empty!.n).toBe(0);
    const expected = (await loadMigrations(CYPHER_DIR)).map((m) => m.version);

    const started = performance.now();
    for (let i = 0; i < REPLICAS; i++) {
      replicas.push(spawnReplica({ name: `replica-${i + 1}`, port: FIRST_PORT + i, neo4jUri: URI, neo4jPassword: NEO4J.password }));
    }
    const ready = await Promise.allSettled(replicas.map((r) => r.waitReady(300_000)));
    const failures = ready.flatMap((r) => (r.status === 'rejected' ? [String(r.reason)] : []));
    expect(failures, failures.join('\n')).toEqual([]);

    for (const replica of replicas) {
      const { status, body } = await replica.health();
      expect(status).toBe(200);
      expect(body.neo4j).toMatchObject({
        schemaVersion: Math.max(...expected),
        expectedSchemaVersion: Math.max(...expected),
        indexesNotOnline: [],
      });
    }
    // One SchemaMigration per version, all applied by the same starter; one "applied" line per migration in all logs together.
    const recorded = await executor.read<{ version: number; appliedBy: string }>('test.migrations', MIGRATIONS);
    expect(recorded.map((r) => r.version)).toEqual(expected);
    expect(new Set(recorded.map((r) => r.appliedBy)).size).toBe(1);
    const appliedLines = replicas.map((r) => r.logs.filter((l) => l.msg === 'migration applied').length);
    expect(appliedLines.reduce((a, b) => a + b, 0)).toBe(expected.length);
    expect(appliedLines.filter((n) => n > 0)).toHaveLength(1);
    const waited = replicas.filter((r) => r.logs.some((l) => l.msg === 'waiting for the migration lock')).length;
    const failed = replicas.flatMap((r) => r.logs.filter((l) => /MIGRATION_FAILED|migration failed/i.test(String(l.msg))));
    expect(failed).toEqual([]);
    const [lock] = await executor.read<{ owner: string | null; n: number }>('test.lock', LOCK, { id: MIGRATION_LOCK_ID });
    expect(lock).toEqual({ owner: null, n: 1 });

    console.log(
      JSON.stringify({
        test: 'concurrent-startup',
        replicas: REPLICAS,
        ready: ready.filter((r) => r.status === 'fulfilled').length,
        readyAfterMs: ready.map((r) => (r.status === 'fulfilled' ? r.value.readyAfterMs : null)),
        totalMs: Math.round(performance.now() - started),
        migrationsRecorded: recorded.length,
        appliedLinesPerReplica: appliedLines,
        replicasThatWaitedForTheLock: waited,
      }),
    );
  }, 420_000);

  it('a lock left by a starter that died is taken over when its lease ends, and the migration it left is applied', async () => {
    const last = Math.max(...(await loadMigrations(CYPHER_DIR)).map((m) => m.version));
    await migrate(executor, CYPHER_DIR, createLogger('silent')); // a no-op after the test above; it may run alone
    // A starter died holding the lock (5 s of lease left) before recording the last migration.
    await executor.write('test.unrecord', `MATCH (m:SchemaMigration {version: $version}) DELETE m`, { version: last });
    const [stale] = await executor.write<{ until: number }>(
      'test.stale-lock',
      `MATCH (l:Lock {id: $id}) SET l.owner = 'crashed-starter', l.expiresAt = datetime.realtime() + duration({seconds: 5}) RETURN l.expiresAt.epochMillis AS until`,
      { id: MIGRATION_LOCK_ID },
    );

    const report = await migrate(executor, CYPHER_DIR, createLogger('silent'));
    expect(report.applied).toEqual([last]);
    const [lock] = await executor.read<{ owner: string | null; n: number }>('test.lock', LOCK, { id: MIGRATION_LOCK_ID });
    expect(lock).toEqual({ owner: null, n: 1 });
    // Applied by this starter, and only after the dead one's lease ran out (both on the database's clock).
    const [row] = await executor.read<{ appliedBy: string; at: number }>(
      'test.migration',
      'MATCH (m:SchemaMigration {version: $version}) RETURN m.appliedBy AS appliedBy, m.appliedAt.epochMillis AS at',
      { version: last },
    );
    expect(row!.appliedBy).not.toBe('crashed-starter');
    expect(row!.at).toBeGreaterThanOrEqual(stale!.until);
  }, 120_000);
});
