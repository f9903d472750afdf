import type { ApolloServerPlugin } from '@apollo/server';
import { unwrapResolverError } from '@apollo/server/errors';
import { GraphQLError, type GraphQLFormattedError } from 'graphql';
import { isMnemographError, publicError, type PublicError } from '../../errors.js';
import type { Logger } from '../../logger.js';
import type { GraphQLContext } from '../context.js';

/**
 * What the client may see of an error raised while answering (src/errors.ts's publicError), or
 * null for GraphQL's own errors about the request itself (parse, validation, variable coercion),
 * which keep their code. Driver errors, engine errors such as "Regular expression too large" and
 * bugs reach the formatter without a code of ours: publicError answers them INTERNAL.
 */
function ownError(error: unknown): PublicError | null {
  const original = unwrapResolverError(error);
  if (isMnemographError(original)) return publicError(original);
  if (!(error instanceof GraphQLError)) return publicError(error);
  if (error.originalError && !(error.originalError instanceof GraphQLError)) return publicError(error.originalError);
  const code = error.extensions.code ?? (error.originalError as GraphQLError | undefined)?.extensions.code;
  return code === undefined || code === 'INTERNAL_SERVER_ERROR' ? publicError(error) : null;
}

/** True when the error is a fault of the server: answered INTERNAL, logged in full. */
export function isInternalError(error: unknown): boolean {
  return ownError(error)?.internal === true;
}

/**
 * Errors become `extensions.code` here, by publicError's rule: our typed errors keep their code
 * and details; Apollo's own (parse, validation, variable coercion) keep theirs; anything else is
 * answered INTERNAL with a generic message (logInternalErrors has logged it with the request id).
 */
export function createErrorFormatter() {
  return (formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError => {
    const own = ownError(error);
    if (own) {
      return {
        message: own.message,
        locations: formatted.locations,
        path: formatted.path,
        extensions: { code: own.code, ...(own.details ? { details: own.details } : {}) },
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
            const log = contextValue?.caller?.logger ?? logger;
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
