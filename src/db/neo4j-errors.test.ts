import { Neo4jError } from 'neo4j-driver';
import { describe, expect, it } from 'vitest';
import { mapNeo4jError } from './neo4j-errors.js';

const driverError = (code: string) => new Neo4jError('driver text that must not reach a client', code, '', '');

describe('mapNeo4jError', () => {
  it('answers a broken or refused connection as UNAVAILABLE, whatever the driver calls it', () => {
    for (const code of ['ServiceUnavailable', 'SessionExpired', 'ProtocolError', 'Neo.TransientError.General.DatabaseUnavailable']) {
      const mapped = mapNeo4jError(driverError(code)) as { code?: string; message?: string };
      expect(mapped.code).toBe('UNAVAILABLE');
      expect(mapped.message).not.toContain('driver text');
    }
  });

  it('keeps timeouts and bookmark errors apart, and leaves unknown errors to the INTERNAL handler', () => {
    expect(
      (mapNeo4jError(driverError('Neo.ClientError.Transaction.TransactionTimedOutClientConfiguration')) as { code: string }).code,
    ).toBe('TIMEOUT');
    expect((mapNeo4jError(driverError('Neo.ClientError.Transaction.InvalidBookmark')) as { code: string }).code).toBe('BAD_USER_INPUT');
    const unknown = driverError('Neo.ClientError.Statement.SyntaxError');
    expect(mapNeo4jError(unknown)).toBe(unknown);
  });
});
