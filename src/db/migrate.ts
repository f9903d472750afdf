import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { MnemographError } from '../errors.js';
import type { Logger } from '../logger.js';
import type { Executor } from './executor.js';

const MIGRATION_FILE = /^(\d{3})-([a-z0-9-]+)\.cypher$/;
const INDEX_ONLINE_TIMEOUT_S = 300;

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

const APPLIED = `MATCH (m:SchemaMigration) RETURN m.version AS version, m.checksum AS checksum`;
const RECORD = `
MERGE (m:SchemaMigration {version: $version})
SET m.name = $name, m.checksum = $checksum, m.appliedAt = datetime()
MERGE (v:SchemaVersion {id: 'current'})
SET v.version = CASE WHEN coalesce(v.version, 0) < $version THEN $version ELSE v.version END,
    v.name = 'schema v' + toString(v.version), v.updatedAt = datetime()`;
const CURRENT = `OPTIONAL MATCH (v:SchemaVersion {id: 'current'}) RETURN coalesce(v.version, 0) AS version`;

/** Numbered `.cypher` files, statements separated by a `;` at the end of a line. */
export async function loadMigrations(dir: string): Promise<Migration[]> {
  const files = (await readdir(dir)).filter((f) => MIGRATION_FILE.test(f)).sort();
  return Promise.all(
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
 * Applies pending migrations in order (schema statements run auto-commit, as Neo4j requires),
 * records each on a SchemaMigration node and the SchemaVersion node, then waits for indexes.
 * Statements are idempotent (`IF NOT EXISTS`), so a crash mid-migration is safe to re-run.
 */
export async function migrate(executor: Executor, dir: string, logger: Logger): Promise<MigrationReport> {
  const migrations = await loadMigrations(dir);
  const applied = new Map(
    (await executor.read<{ version: number; checksum: string }>('migrate.applied', APPLIED)).map((r) => [r.version, r.checksum]),
  );
  const newlyApplied: number[] = [];
  for (const migration of migrations) {
    const recorded = applied.get(migration.version);
    if (recorded !== undefined) {
      if (recorded !== migration.checksum) {
        logger.warn({ version: migration.version }, 'applied migration changed on disk; migrations are forward-only, add a new one');
      }
      continue;
    }
    for (const statement of migration.statements) {
      try {
        await executor.autoCommit(`migrate.${migration.version}`, statement);
      } catch (error) {
        throw new MnemographError(
          'MIGRATION_FAILED',
          `migration ${String(migration.version).padStart(3, '0')}-${migration.name} failed: ${(error as Error).message}`,
          { cause: error, details: { statement } },
        );
      }
    }
    await executor.write('migrate.record', RECORD, { version: migration.version, name: migration.name, checksum: migration.checksum });
    newlyApplied.push(migration.version);
    logger.info({ version: migration.version, name: migration.name }, 'migration applied');
  }
  await executor.autoCommit('migrate.await-indexes', `CALL db.awaitIndexes(${INDEX_ONLINE_TIMEOUT_S})`, {}, { timeoutMs: (INDEX_ONLINE_TIMEOUT_S + 10) * 1000 });
  return { applied: newlyApplied, version: await schemaVersion(executor) };
}

export async function schemaVersion(executor: Executor): Promise<number> {
  const [row] = await executor.read<{ version: number }>('migrate.version', CURRENT);
  return row?.version ?? 0;
}
