export { type GraphQLContext } from './context.js';
export { costLimitPlugin } from './cost-limit.js';
export { createErrorFormatter, logInternalErrors } from './plugins/errors.js';
export { operationMetricsPlugin, requestLogPlugin } from './plugins/operations.js';
export { queryLimitRules } from './query-limits.js';
export { graphiqlRouter } from './ide.js';
export { resolvers } from './resolvers/index.js';
export { typeDefs } from './schema.js';
export { tokenLimit } from './token-limit.js';
