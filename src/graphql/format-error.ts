import type { ApolloServerPlugin } from '@apollo/server';
import { unwrapResolverError } from '@apollo/server/errors';
import { GraphQLError, type GraphQLFormattedError } from 'graphql';
import { isMnemographError } from '../errors.js';
import type { Logger } from '../logger.js';
import type { GraphQLContext } from './context.js';

/** What a client is told about a failure it cannot act on; the log has the rest under the request id. */
export const INTERNAL_MESSAGE = 'internal error (logged under this response’s x-request-id)';

/**
 * True when an error would tell a client about internals: anything that is neither one of our
 * coded errors nor a GraphQL error about the request itself (driver errors, engine errors such
 * as "Regular expression too large", bugs, and our own INTERNAL).
 */
export function isInternalError(error: unknown): boolean {
  const original = unwrapResolverError(error);
  if (isMnemographError(original)) return original.code === 'INTERNAL';
  if (!(error instanceof GraphQLError)) return true;
  if (error.originalError && !(error.originalError instanceof GraphQLError)) return true;
  const code = error.extensions.code ?? (error.originalError as GraphQLError | undefined)?.extensions.code;
  return code === undefined || code === 'INTERNAL_SERVER_ERROR';
}

/**
 * The one place errors become `extensions.code`. Our typed errors keep their code and details;
 * Apollo's own (parse, validation, variable coercion) keep theirs; anything else is answered
 * INTERNAL with a generic message (logInternalErrors has logged it with the request id).
 */
export function createErrorFormatter() {
  return (formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError => {
    if (isInternalError(error))
      return { message: INTERNAL_MESSAGE, locations: formatted.locations, path: formatted.path, extensions: { code: 'INTERNAL' } };
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
    if (ruleCode) {
      const original = (error as GraphQLError).originalError as GraphQLError;
      return { ...formatted, extensions: { ...formatted.extensions, ...original.extensions, code: ruleCode } };
    }
    return formatted;
  };
}

/** Logs every internal error of an operation with its request id, before the formatter hides it. */
export function logInternalErrors(logger: Logger): ApolloServerPlugin<GraphQLContext> {
  return {
    async requestDidStart() {
      return {
        async didEncounterErrors({ errors, contextValue }) {
          for (const error of errors) {
            if (!isInternalError(error)) continue;
            const log = contextValue?.logger ?? logger;
            log.error({ err: unwrapResolverError(error), path: error.path }, 'unexpected error in a GraphQL operation');
          }
        },
      };
    },
  };
}

/**
 * Apollo re-codes every validation error GRAPHQL_VALIDATION_FAILED, keeping the rule's error as
 * `originalError`; a code our own rules set there (the query limits' LIMIT_EXCEEDED) wins.
 */
function ownValidationCode(error: unknown): string | undefined {
  if (!(error instanceof GraphQLError) || error.extensions.code !== 'GRAPHQL_VALIDATION_FAILED') return undefined;
  const original = error.originalError;
  const code = original instanceof GraphQLError ? original.extensions.code : undefined;
  return typeof code === 'string' ? code : undefined;
}
