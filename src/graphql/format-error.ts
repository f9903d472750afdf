import { GraphQLError, type GraphQLFormattedError } from 'graphql';
import { unwrapResolverError } from '@apollo/server/errors';
import { isMnemographError } from '../errors.js';
import type { Logger } from '../logger.js';

/**
 * The one place errors become `extensions.code`. Our typed errors keep their code and details;
 * Apollo's own (parse, validation, variable coercion) keep theirs; anything else is logged and
 * reported without internals.
 */
export function createErrorFormatter(logger: Logger) {
  return (formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError => {
    const original = unwrapResolverError(error);
    if (isMnemographError(original)) {
      return {
        message: original.message,
        locations: formatted.locations,
        path: formatted.path,
        extensions: { code: original.code, ...(original.details ? { details: original.details } : {}) },
      };
    }
    const ruleCode = ownValidationCode(error);
    if (ruleCode) return { ...formatted, extensions: { ...formatted.extensions, code: ruleCode } };
    const code = formatted.extensions?.code;
    if (typeof code === 'string' && code !== 'INTERNAL_SERVER_ERROR') return formatted;
    logger.error({ err: original, path: formatted.path }, 'unexpected error in a GraphQL operation');
    return { message: 'internal error', locations: formatted.locations, path: formatted.path, extensions: { code: 'INTERNAL_SERVER_ERROR' } };
  };
}

/**
 * Apollo re-codes every validation error GRAPHQL_VALIDATION_FAILED, keeping the rule's error as
 * `originalError`; a code our own rules set there (the depth limit's LIMIT_EXCEEDED) wins.
 */
function ownValidationCode(error: unknown): string | undefined {
  if (!(error instanceof GraphQLError) || error.extensions.code !== 'GRAPHQL_VALIDATION_FAILED') return undefined;
  const original = error.originalError;
  const code = original instanceof GraphQLError ? original.extensions.code : undefined;
  return typeof code === 'string' ? code : undefined;
}
