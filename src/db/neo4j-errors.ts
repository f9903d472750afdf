import { Neo4jError } from 'neo4j-driver';
import { MnemographError, UnavailableError, ValidationError } from '../errors.js';

const UNAVAILABLE_CODES = new Set(['ServiceUnavailable', 'SessionExpired', 'Neo.TransientError.General.DatabaseUnavailable']);

/** Maps driver errors by their `code` (never by message text) onto our typed errors. */
export function mapNeo4jError(error: unknown): unknown {
  if (error instanceof MnemographError) return error;
  if (error instanceof Neo4jError) {
    if (UNAVAILABLE_CODES.has(error.code) || error.code.startsWith('Neo.TransientError.')) {
      return new UnavailableError('Neo4j is unavailable; try again shortly', error);
    }
    if (error.code === 'Neo.ClientError.Schema.ConstraintValidationFailed') {
      return new ValidationError('the write conflicts with an existing record', { neo4jCode: error.code });
    }
  }
  return error;
}
