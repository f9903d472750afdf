import { Neo4jError } from 'neo4j-driver';
import { MnemographError, TimeoutError, UnavailableError, ValidationError } from '../errors.js';

// A transaction that ran past its configured timeout, or was terminated for it.
const TIMEOUT_CODES = new Set([
  'Neo.ClientError.Transaction.TransactionTimedOut',
  'Neo.ClientError.Transaction.TransactionTimedOutClientConfiguration',
  'Neo.TransientError.Transaction.TransactionTimedOut',
  'Neo.TransientError.Transaction.TransactionTimedOutClientConfiguration',
]);
// ProtocolError: the connection broke during the handshake or login (a cut at the wire), which the
// driver does not retry; to a client it is the database being unreachable, not an internal fault.
const UNAVAILABLE_CODES = new Set([
  'ServiceUnavailable',
  'SessionExpired',
  'ProtocolError',
  'Neo.TransientError.General.DatabaseUnavailable',
]);

/** Maps driver errors by their `code` (never by message text) onto our typed errors. */
export function mapNeo4jError(error: unknown): unknown {
  if (error instanceof MnemographError) return error;
  if (error instanceof Neo4jError) {
    if (TIMEOUT_CODES.has(error.code)) return new TimeoutError('the database query took too long and was stopped', error);
    if (
      error.code === 'Neo.ClientError.Transaction.InvalidBookmark' ||
      error.code === 'Neo.ClientError.Transaction.InvalidBookmarkMixture'
    ) {
      return new ValidationError('the bookmark is not one of this database: send back the value of a previous response', {
        neo4jCode: error.code,
      });
    }
    if (UNAVAILABLE_CODES.has(error.code) || error.code.startsWith('Neo.TransientError.')) {
      return new UnavailableError('Neo4j is unavailable; try again shortly', error);
    }
    if (error.code === 'Neo.ClientError.Schema.ConstraintValidationFailed') {
      return new ValidationError('the write conflicts with an existing record', { neo4jCode: error.code });
    }
  }
  return error;
}
