import { createHash, randomUUID } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { error as driverErrors, isRetryableError, Neo4jError } from 'neo4j-driver';
import { ConsistencyScope, withConsistency } from '../consistency/index.js';
import { MnemographError } from '../errors.js';
import type { Logger } from '../logger.js';
import type { Executor } from './executor.js';

const MIGRATION_FILE = /^(\d{3})-([a-z0-9-]+)\.cypher$/;
export const INDEX_ONLINE_TIMEOUT_S = 300;
/** Schema statements may populate an index over existing data: longer than a write's timeout. */
export const SCHEMA_STATEMENT_TIMEOUT_MS = INDEX_ONLINE_TIMEOUT_S * 1000;
/** The migration lock is a lease on the database clock, renewed while migrations run. */
export const MIGRATION_LOCK_ID = 'schema-migrations';
const MIGRATION_LEASE_MS = 60 * 1000;
const MIGRATION_LOCK_WAIT_MS = 15 * 60 * 1000;
const LOCK_POLL_MS = 500;
const TRANSIENT_RETRY_MS = 60 * 1000;
const PROTOCOL_ERROR = driverErrors.PROTOCOL_ERROR;

export interface Migration {
  version: number;
  name: string;
  checksum: string;
  statements: string[];
}

export interface MigrationReport {
  applied: number[];
  version: number;
}

// The migrator's own schema: Lock nodes are unique by id, so MERGE on one is race-free. It is
// created before the lock it protects (every starter may run it; IF NOT EXISTS makes it a no-op).
const LOCK_CONSTRAINT = `CREATE CONSTRAINT lock_id IF NOT EXISTS FOR (n:Lock) REQUIRE n.id IS UNIQUE`;
const LOCK_CONSTRAINT_EXISTS = `SHOW CONSTRAINTS YIELD name WHERE name = 'lock_id' RETURN count(*) AS n`;
// Takes the node's write lock first, THEN reads the holder: concurrent starters queue on the lock.
const ACQUIRE = `
MERGE (l:Lock {id: $id})
ON CREATE SET l.name = $id
SET l._lock = true
REMOVE l._lock
WITH l, datetime.realtime() AS now
WITH l, now, (l.owner IS NULL OR l.owner = $owner OR l.expiresAt < now) AS free
SET l.owner = CASE WHEN free THEN $owner ELSE l.owner END,
    l.expiresAt = CASE WHEN free THEN now + duration({milliseconds: $leaseMs}) ELSE l.expiresAt END
RETURN free AS acquired, l.owner AS owner`;
const RENEW = `
MATCH (l:Lock {id: $id}) WHERE l.owner = $owner
SET l.expiresAt = datetime.realtime() + duration({milliseconds: $leaseMs})
RETURN count(l) AS held`;
const RELEASE = `MATCH (l:Lock {id: $id}) WHERE l.owner = $owner SET l.owner = null, l.expiresAt = null, l.releasedAt = datetime.realtime()`;

const APPLIED = `MATCH (m:SchemaMigration) RETURN m.version AS version, m.checksum AS checksum`;
// Fenced by the lock: a starter whose lease expired (and was taken over) records nothing.
const RECORD = `
MATCH (l:Lock {id: $lockId}) WHERE l.owner = $owner
MERGE (m:SchemaMigration {version: $version})
ON CREATE SET m.appliedBy = $owner
SET m.name = $name, m.checksum = $checksum, m.appliedAt = datetime()
MERGE (v:SchemaVersion {id: 'current'})
SET v.version = CASE WHEN coalesce(v.version, 0) < $version THEN $version ELSE v.version END,
    v.name = 'schema v' + toString(v.version), v.updatedAt = datetime()
RETURN count(m) AS recorded`;
const CURRENT = `OPTIONAL MATCH (v:SchemaVersion {id: 'current'}) RETURN coalesce(v.version, 0) AS version`;
const NOT_ONLINE = `SHOW INDEXES YIELD name, state WHERE state <> 'ONLINE' RETURN name, state ORDER BY name LIMIT 20`;

/** Numbered `.cypher` files, statements separated by a `;` at the end of a line. */
export async function loadMigrations(dir: string): Promise<Migration[]> {
  const files = (await readdir(dir)).filter((f) => MIGRATION_FILE.test(f)).sort();
  const migrations = await Promise.all(
    files.map(async (file) => {
      const [, version, name] = MIGRATION_FILE.exec(file)!;
      const text = await readFile(join(dir, file), 'utf8');
      return {
        version: Number(version),
        name: name!,
        checksum: createHash('sha256').update(text).digest('hex'),
        statements: splitStatements(text),
      };
    }),
  );
  const versions = migrations.map((m) => m.version);
  const twice = versions.find((v, i) => versions.indexOf(v) !== i);
  if (twice !== undefined)
    throw new MnemographError('MIGRATION_FAILED', `two migration files share version ${String(twice).padStart(3, '0')}: renumber one`);
  return migrations;
}

export function splitStatements(text: string): string[] {
  const withoutComments = text
    .split('\n')
    .filter((line) => !line.trim().startsWith('//'))
    .join('\n');
  return withoutComments
    .split(/;\s*$/m)
    .map((s) => s.trim())
    .filter(Boolean);
}

/**
 * Applies pending migrations in order and waits for indexes; safe to call from N replicas at
 * once. The applied set is read on the leader (a write-mode transaction) inside one bookmark
 * chain. When something is pending, the caller takes the migration lock (a lease on a Lock node,
 * on the database's clock), reads the applied set again, applies what is still pending, records
 * each migration fenced by its lease, and releases; the others wait for the lock, then find
 * nothing pending. Transient errors (deadlocks, leader switches) are retried. Schema statements
 * are idempotent (`IF NOT EXISTS`), so a starter that dies mid-way leaves a state the next
 * holder (after the lease expires) completes.
 */
export async function migrate(executor: Executor, dir: string, logger: Logger): Promise<MigrationReport> {
  const migrations = await loadMigrations(dir);
  return withConsistency(new ConsistencyScope(), async () => {
    const newlyApplied: number[] = [];
    if (pendingOf(migrations, await appliedMigrations(executor)).length > 0 || !(await lockConstraintExists(executor))) {
      await createLockConstraint(executor, logger);
      const owner = lockOwner();
      await withMigrationLock(executor, owner, logger, async (lease) => {
        const applied = await appliedMigrations(executor);
        warnChanged(migrations, applied, logger);
        for (const migration of pendingOf(migrations, applied)) {
          await applyMigration(executor, migration, owner, lease, logger);
          newlyApplied.push(migration.version);
        }
      });
    }
    await retryTransient(
      'migrate.await-indexes',
      () =>
        executor.autoCommit(
          'migrate.await-indexes',
          `CALL db.awaitIndexes(${INDEX_ONLINE_TIMEOUT_S})`,
          {},
          { timeoutMs: (INDEX_ONLINE_TIMEOUT_S + 10) * 1000 },
        ),
      logger,
    );
    return { applied: newlyApplied, version: await schemaVersion(executor) };
  });
}

interface Lease {
  lost: boolean;
}

/** Who holds the migration lock: this host, process and start. */
const lockOwner = () => `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;

/**
 * `work` under the migration lock (taken after migrate() made its constraint): a schema change
 * made at start-up from the running configuration (the vector index's dimension), so replicas
 * started at once make it once.
 */
export async function underMigrationLock(executor: Executor, logger: Logger, work: () => Promise<void>): Promise<void> {
  await withMigrationLock(executor, lockOwner(), logger, work);
}

async function applyMigration(executor: Executor, migration: Migration, owner: string, lease: Lease, logger: Logger): Promise<void> {
  const label = `${String(migration.version).padStart(3, '0')}-${migration.name}`;
  for (const statement of migration.statements) {
    try {
      await retryTransient(
        `migrate.${migration.version}`,
        () => executor.autoCommit(`migrate.${migration.version}`, statement, {}, { timeoutMs: SCHEMA_STATEMENT_TIMEOUT_MS }),
        logger,
      );
    } catch (error) {
      throw new MnemographError('MIGRATION_FAILED', `migration ${label} failed: ${(error as Error).message}`, {
        cause: error,
        details: { statement },
      });
    }
  }
  const [row] = lease.lost
    ? [{ recorded: 0 }]
    : await executor.write<{ recorded: number }>('migrate.record', RECORD, {
        lockId: MIGRATION_LOCK_ID,
        owner,
        version: migration.version,
        name: migration.name,
        checksum: migration.checksum,
      });
  if (!row?.recorded)
    throw new MnemographError('MIGRATION_FAILED', `migration ${label}: the migration lock expired while it ran; start again`);
  logger.info({ version: migration.version, name: migration.name }, 'migration applied');
}

/** Holds the migration lock around `work`, renewing its lease; waits while another starter holds it. */
async function withMigrationLock(executor: Executor, owner: string, logger: Logger, work: (lease: Lease) => Promise<void>): Promise<void> {
  const params = { id: MIGRATION_LOCK_ID, owner, leaseMs: MIGRATION_LEASE_MS };
  const deadline = Date.now() + MIGRATION_LOCK_WAIT_MS;
  let waitingFor: string | null = null;
  for (;;) {
    const [row] = await executor.write<{ acquired: boolean; owner: string }>('migrate.lock', ACQUIRE, params);
    if (row?.acquired) break;
    if (row?.owner !== waitingFor) logger.info({ holder: row?.owner }, 'waiting for the migration lock');
    waitingFor = row?.owner ?? null;
    if (Date.now() > deadline)
      throw new MnemographError(
        'MIGRATION_FAILED',
        `the migration lock is still held by ${waitingFor} after ${MIGRATION_LOCK_WAIT_MS / 1000} s`,
      );
    await sleep(LOCK_POLL_MS + Math.random() * LOCK_POLL_MS);
  }
  const lease: Lease = { lost: false };
  const renewal = setInterval(() => {
    executor
      .write<{ held: number }>('migrate.lock-renew', RENEW, params)
      .then(([held]) => void (held?.held ? undefined : (lease.lost = true)))
      .catch((error: Error) => logger.warn({ err: error.message }, 'could not renew the migration lock; will try again'));
  }, MIGRATION_LEASE_MS / 4);
  try {
    await work(lease);
  } finally {
    clearInterval(renewal);
    await executor
      .write('migrate.unlock', RELEASE, params)
      .catch((error: Error) => logger.warn({ err: error.message }, 'migration lock not released; it expires on its own'));
  }
}

/** Read in a write-mode transaction: on a cluster it is answered by the leader, never a lagging secondary. */
async function appliedMigrations(executor: Executor): Promise<Map<number, string>> {
  const rows = await executor.writeTx('migrate.applied', (tx) => tx.run<{ version: number; checksum: string }>(APPLIED));
  return new Map(rows.map((r) => [r.version, r.checksum]));
}

/** Concurrent starters may race on it; whoever loses finds it made by another. */
async function createLockConstraint(executor: Executor, logger: Logger): Promise<void> {
  try {
    await retryTransient(
      'migrate.bootstrap',
      () => executor.autoCommit('migrate.bootstrap', LOCK_CONSTRAINT, {}, { timeoutMs: SCHEMA_STATEMENT_TIMEOUT_MS }),
      logger,
    );
  } catch (error) {
    if (!(await lockConstraintExists(executor)))
      throw new MnemographError('MIGRATION_FAILED', `could not create the migration lock's constraint: ${(error as Error).message}`, {
        cause: error,
      });
  }
}

async function lockConstraintExists(executor: Executor): Promise<boolean> {
  const [row] = await executor.autoCommit<{ n: number }>('migrate.lock-constraint', LOCK_CONSTRAINT_EXISTS);
  return (row?.n ?? 0) > 0;
}

function pendingOf(migrations: Migration[], applied: Map<number, string>): Migration[] {
  return migrations.filter((m) => !applied.has(m.version));
}

function warnChanged(migrations: Migration[], applied: Map<number, string>, logger: Logger): void {
  for (const m of migrations) {
    const recorded = applied.get(m.version);
    if (recorded !== undefined && recorded !== m.checksum) {
      logger.warn({ version: m.version }, 'applied migration changed on disk; migrations are forward-only, add a new one');
    }
  }
}

/**
 * The driver's own classification (deadlocks, leader switches, lost connections), seen through our
 * mapped errors — plus ProtocolError: the driver reports a connection lost during authentication
 * that way (found with the fault proxy), and every migration step is safe to repeat.
 */
export function isTransient(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    if (e instanceof Neo4jError) return isRetryableError(e) || e.code === PROTOCOL_ERROR;
  }
  return false;
}

export async function retryTransient<T>(operation: string, work: () => Promise<T>, logger: Logger): Promise<T> {
  const deadline = Date.now() + TRANSIENT_RETRY_MS;
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      if (!isTransient(error) || Date.now() > deadline) throw error;
      logger.info({ operation, attempt, err: (error as Error).message }, 'transient error; retrying');
      await sleep(Math.min(5_000, 100 * 2 ** attempt) * (0.5 + Math.random()));
    }
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function schemaVersion(executor: Executor): Promise<number> {
  const [row] = await executor.read<{ version: number }>('migrate.version', CURRENT);
  return row?.version ?? 0;
}

export interface SchemaReadiness {
  version: number;
  expectedVersion: number;
  /** Indexes (and constraints' indexes) not ONLINE yet: POPULATING or FAILED; at most 20. */
  notOnline: Array<{ name: string; state: string }>;
  ready: boolean;
}

let expectedVersionCache: { dir: string; version: Promise<number> } | undefined;

/** The highest migration version on disk (read once per directory). */
export function expectedSchemaVersion(dir: string): Promise<number> {
  if (expectedVersionCache?.dir !== dir) {
    expectedVersionCache = { dir, version: loadMigrations(dir).then((ms) => ms.reduce((max, m) => Math.max(max, m.version), 0)) };
  }
  return expectedVersionCache.version;
}

/**
 * Ready when the database's schema is at least the version this build expects (a newer replica
 * may have moved it on: migrations only add) and every index is ONLINE.
 */
export async function schemaReadiness(executor: Executor, dir: string): Promise<SchemaReadiness> {
  const [version, expectedVersion, notOnline] = await Promise.all([
    schemaVersion(executor),
    expectedSchemaVersion(dir),
    executor.read<{ name: string; state: string }>('migrate.indexes-not-online', NOT_ONLINE),
  ]);
  return { version, expectedVersion, notOnline, ready: version >= expectedVersion && expectedVersion > 0 && notOnline.length === 0 };
}
