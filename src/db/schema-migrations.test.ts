import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Neo4jError } from 'neo4j-driver';
import { afterAll, describe, expect, it } from 'vitest';
import { UnavailableError } from '../errors.js';
import { isTransient, loadMigrations } from './schema-migrations.js';
import { mapNeo4jError } from './neo4j-errors.js';

describe('migration retries', () => {
  const neo4jError = (code: string) => new Neo4jError('boom', code, '', '');

  it('retries what the driver calls retriable, also behind our mapped errors', () => {
    expect(isTransient(neo4jError('Neo.TransientError.Transaction.DeadlockDetected'))).toBe(true);
    expect(isTransient(mapNeo4jError(neo4jError('Neo.TransientError.Transaction.DeadlockDetected')))).toBe(true);
    expect(isTransient(new UnavailableError('down', neo4jError('ServiceUnavailable')))).toBe(true);
    expect(isTransient(neo4jError('SessionExpired'))).toBe(true);
  });

  it('retries a connection lost while authenticating (the driver says ProtocolError)', () => {
    expect(isTransient(neo4jError('ProtocolError'))).toBe(true);
  });

  it('does not retry client errors or errors without a driver cause', () => {
    expect(isTransient(neo4jError('Neo.ClientError.Statement.SyntaxError'))).toBe(false);
    expect(isTransient(neo4jError('Neo.ClientError.Schema.ConstraintValidationFailed'))).toBe(false);
    expect(isTransient(new Error('disk full'))).toBe(false);
    expect(isTransient(undefined)).toBe(false);
  });
});

describe('loading migrations', () => {
  const dir = mkdtempSync(join(tmpdir(), 'migrations-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('refuses two files with one version number', async () => {
    writeFileSync(join(dir, '001-a.cypher'), 'CREATE INDEX a IF NOT EXISTS FOR (n:A) ON (n.x);');
    writeFileSync(join(dir, '001-b.cypher'), 'CREATE INDEX b IF NOT EXISTS FOR (n:B) ON (n.x);');
    await expect(loadMigrations(dir)).rejects.toMatchObject({ code: 'MIGRATION_FAILED', message: expect.stringContaining('001') });
  });
});
