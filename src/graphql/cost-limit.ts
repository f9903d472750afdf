import { createRequire } from 'node:module';
import type { ApolloServerPlugin, BaseContext } from '@apollo/server';
import { getVariableValues, GraphQLError, type DocumentNode, type GraphQLSchema, type OperationDefinitionNode } from 'graphql';
import type { ComplexityEstimator, ComplexityEstimatorArgs } from 'graphql-query-complexity';

// The CommonJS build, required: the ESM build imports `graphql/index.mjs`, a second copy of
// graphql beside the CommonJS one Apollo and this service load ("from another module or realm").
const { fieldExtensionsEstimator, getComplexity, simpleEstimator } = createRequire(import.meta.url)(
  'graphql-query-complexity',
) as typeof import('graphql-query-complexity');

/** Past this many evaluated fields (fragments spread many times) a query is refused unestimated. */
const MAX_EVALUATED_NODES = 10_000;

/**
 * Lists whose length no argument states, with the length assumed for costing. Lists sized by
 * `first`/`limit`/`ids`/`inputs`/`before`+`after` are costed from those arguments instead.
 */
export const ASSUMED_LIST_SIZES: Readonly<Record<string, number>> = {
  'Memory.chunks': 5,
  // The caps of src/db/queries/graph.ts and neighbors.ts: a list never returns more than it is priced at.
  'Memory.entities': 20,
  'Memory.attributes': 20,
  'Memory.history': 20,
  'Memory.jobs': 20,
  'Entity.aspects': 6,
  'Entity.relations': 10,
  'Aspect.attributes': 5,
  'Neighborhood.entities': 100,
  'Neighborhood.relations': 100,
  'Query.attributeHistory': 100,
  'Query.relations': 50,
  'PipelineStatus.lastErrors': 10,
};

/** How many items a field's arguments ask for, when they say. */
function requestedSize(args: Record<string, unknown>): number | undefined {
  for (const name of ['first', 'limit']) {
    const value = args[name];
    if (typeof value === 'number') return value;
  }
  for (const name of ['ids', 'inputs']) {
    const value = args[name];
    if (Array.isArray(value)) return value.length;
  }
  const { before, after } = args;
  if (typeof before === 'number' || typeof after === 'number')
    return 1 + (typeof before === 'number' ? before : 0) + (typeof after === 'number' ? after : 0);
  return undefined;
}

/**
 * What a field costs itself, in units of one plain field: the root fields that embed a query,
 * run several index searches or write, priced so that aliasing them is no free multiplier.
 */
export const FIELD_COSTS: Readonly<Record<string, number>> = {
  'Query.recall': 200,
  'Query.search': 200,
  'Query.timeline': 100,
  'Query.neighbors': 50,
  'Query.attributeHistory': 20,
  'Query.pipelineStatus': 20,
  'Query.queueByKind': 10,
  'Query.viewer': 5,
  'Query.health': 10,
  'Query.relations': 10,
  'Query.memoriesConnection': 5,
  'Query.entities': 5,
  'Query.jobs': 5,
  'Mutation.remember': 100,
  'Mutation.updateMemory': 100,
  'Mutation.forget': 20,
  'Mutation.pin': 10,
  'Mutation.unpin': 10,
  'Mutation.requeueJob': 10,
  // Operators' and ingestion entry points: each starts or runs bounded batches of work.
  'Mutation.ingestDocument': 100,
  'Mutation.runRetention': 50,
  'Mutation.runMaintenance': 50,
  'Mutation.compressSessions': 50,
  // Sessions: a start runs a recall (or two) and a write; an end or a recovery a few bounded reads and one write.
  'Mutation.startSession': 200,
  'Mutation.endSession': 50,
  'Query.recoverSession': 20,
  'Query.session': 10,
  'Mutation.deleteNamespace': 50,
  // Export pages are priced per record through `first`; an import call embeds and writes up to MAX_IMPORT_LINES records.
  'Query.exportNamespace': 20,
  'Mutation.importNamespace': 200,
  'Mutation.revertProposal': 20,
  'Mutation.mergeEntities': 20,
  'Mutation.assertFact': 20,
};

/** What each item of a list argument costs on top of its selection (embedding is batched). */
export const ITEM_COSTS: Readonly<Record<string, number>> = {
  'Mutation.rememberBatch': 5,
};

/** A field costs its own price plus its selection once per item asked for (or assumed). */
const fieldEstimator: ComplexityEstimator = ({ type, field, args, childComplexity }: ComplexityEstimatorArgs) => {
  const key = `${type.name}.${field.name}`;
  const own = FIELD_COSTS[key];
  const size = requestedSize(args) ?? ASSUMED_LIST_SIZES[key];
  if (size === undefined) return own === undefined ? undefined : own + childComplexity;
  return (own ?? 1) + ((ITEM_COSTS[key] ?? 0) + childComplexity) * Math.max(1, Math.floor(size));
};

const ESTIMATORS: ComplexityEstimator[] = [fieldExtensionsEstimator(), fieldEstimator, simpleEstimator({ defaultComplexity: 1 })];

/**
 * The cost of one operation: every field 1 unless priced, list fields times the items they ask for;
 * each alias of a field is priced again.
 * Throws when the variables are invalid (execution reports those) or the query is too large.
 */
export function operationCost(
  schema: GraphQLSchema,
  document: DocumentNode,
  operationName: string | null | undefined,
  variables: Record<string, unknown> = {},
): number {
  return getComplexity({
    schema,
    query: document,
    variables,
    estimators: ESTIMATORS,
    maxQueryNodes: MAX_EVALUATED_NODES,
    ...(operationName ? { operationName } : {}),
  });
}

function limitExceeded(message: string, details: Record<string, unknown>): GraphQLError {
  return new GraphQLError(message, { extensions: { code: 'LIMIT_EXCEEDED', details, http: { status: 400 } } });
}

/** Refuses operations costing more than `maxCost` after parsing and validation, before execution. */
export function costLimitPlugin<TContext extends BaseContext>(maxCost: number): ApolloServerPlugin<TContext> {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ schema, document, operation, operationName, request }) {
          if (!operation || !variablesCoerce(schema, operation, request.variables ?? {})) return; // execution reports those errors
          let cost: number;
          try {
            cost = operationCost(schema, document, operationName, request.variables ?? {});
          } catch {
            throw limitExceeded(`query is too large to estimate its cost (more than ${MAX_EVALUATED_NODES} fields evaluated)`, { maxCost });
          }
          if (cost > maxCost)
            throw limitExceeded(`query cost ${cost} exceeds the maximum of ${maxCost} (MAX_QUERY_COST)`, { cost, maxCost });
        },
      };
    },
  };
}

function variablesCoerce(schema: GraphQLSchema, operation: OperationDefinitionNode, variables: Record<string, unknown>): boolean {
  const result = getVariableValues(schema, operation.variableDefinitions ?? [], variables, { maxErrors: 1 });
  return !result.errors;
}
