import { maxAliasesRule } from '@escape.tech/graphql-armor-max-aliases';
import { maxDepthRule } from '@escape.tech/graphql-armor-max-depth';
import { maxDirectivesRule } from '@escape.tech/graphql-armor-max-directives';
import { MaxTokensParserWLexer } from '@escape.tech/graphql-armor-max-tokens';
import { GraphQLError, type ValidationContext, type ValidationRule } from 'graphql';
import { LimitExceededError } from '../errors.js';

export interface QueryLimits {
  maxDepth: number;
  maxAliases: number;
  maxDirectives: number;
}

function limitError(message: string, details: Record<string, unknown>): GraphQLError {
  return new GraphQLError(message, { extensions: { code: 'LIMIT_EXCEEDED', details, http: { status: 400 } } });
}

/** Armor's rules throw by default, which aborts validation; reporting keeps the code and message ours. */
function reportingAs(message: string, details: Record<string, unknown>) {
  return {
    exposeLimits: false,
    propagateOnRejection: false,
    onReject: [(context: ValidationContext | null) => context?.reportError(limitError(message, details))],
  };
}

/**
 * Depth, aliases and directives per operation, from GraphQL Armor. Each walks a fragment once
 * and reuses its count at every further spread, so a fragment bomb costs linear time.
 */
export function queryLimitRules(limits: QueryLimits): ValidationRule[] {
  return [
    maxDepthRule({
      n: limits.maxDepth,
      flattenFragments: true,
      ...reportingAs(`query depth exceeds the maximum of ${limits.maxDepth} (MAX_QUERY_DEPTH)`, { maxDepth: limits.maxDepth }),
    }),
    maxAliasesRule({
      n: limits.maxAliases,
      ...reportingAs(`query uses more than ${limits.maxAliases} aliases (MAX_QUERY_ALIASES)`, { maxAliases: limits.maxAliases }),
    }),
    maxDirectivesRule({
      n: limits.maxDirectives,
      ...reportingAs(`query uses more than ${limits.maxDirectives} directives (MAX_QUERY_DIRECTIVES)`, {
        maxDirectives: limits.maxDirectives,
      }),
    }),
  ] as unknown as ValidationRule[];
}

/**
 * Counts the document's tokens with Armor's lexer, stopping at the first one past `maxTokens`,
 * before anything else parses or validates it. Syntax errors are left to the GraphQL server.
 */
export function assertTokenLimit(source: string, maxTokens: number): void {
  const tooMany = new LimitExceededError(`query has more than ${maxTokens} tokens (MAX_QUERY_TOKENS)`, { maxTokens });
  try {
    new MaxTokensParserWLexer(source, {
      n: maxTokens,
      propagateOnRejection: false,
      onReject: [
        () => {
          throw tooMany;
        },
      ],
    }).parseDocument();
  } catch (error) {
    if (error === tooMany) throw tooMany;
  }
}
