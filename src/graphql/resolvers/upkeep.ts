import { ForbiddenError, ValidationError } from '../../errors.js';
import type { MutationResolvers, PipelineStatusResolvers, Resolvers } from '../generated/types.js';
import { writableNamespaces } from '../guards.js';

/** Operator calls of the upkeep workers (src/upkeep). */
export const upkeepMutations: Pick<MutationResolvers, 'runRetention'> = {
  runRetention: async (_, { namespace, allNamespaces, dryRun }, ctx) => {
    // Every namespace at once only for a key that may write all of them (or open mode).
    if (allNamespaces) {
      if (writableNamespaces(ctx) !== null) throw new ForbiddenError('allNamespaces needs an API key for every namespace ("*")');
      if (namespace) throw new ValidationError('give either namespace or allNamespaces, not both', { field: 'namespace' });
      return ctx.services.upkeep.runRetention(null, dryRun ?? false);
    }
    return ctx.services.upkeep.runRetention(ctx.namespaceFor(namespace, 'write'), dryRun ?? false);
  },
};

/**
 * Process-wide upkeep state on pipelineStatus. It counts every namespace of this replica, so
 * only a caller who may read all of them (a "*" key, or open mode) sees it; others get null.
 */
export const PipelineStatusUpkeep: Pick<PipelineStatusResolvers, 'embeddings' | 'retention'> = {
  embeddings: (_, __, ctx) => (ctx.principal.readableNamespaces === null ? ctx.services.upkeep.trackerStats() : null),
  retention: (_, __, ctx) => (ctx.principal.readableNamespaces === null ? ctx.services.upkeep.lastRetentionReport() : null),
};

/** Adds the upkeep fields to the resolver map (registered in one place: resolvers/index.ts). */
export function withUpkeep(resolvers: Resolvers): Resolvers {
  return {
    ...resolvers,
    Mutation: { ...resolvers.Mutation, ...upkeepMutations },
    PipelineStatus: { ...resolvers.PipelineStatus, ...PipelineStatusUpkeep },
  };
}
