import { jobsOfMemory, queueDepthByKind, storedNamespaces } from '../../db/index.js';
import type { MemoryResolvers, QueryResolvers, Resolvers } from '../generated/types.js';

/** What the memory explorer (GET /explorer, src/http/explorer.ts) asks that no other root answers. */
export const explorerQueries: Pick<QueryResolvers, 'viewer' | 'queueByKind'> = {
  viewer: async (_, __, ctx) => {
    const named = ctx.caller.principal.readableNamespaces;
    return {
      name: ctx.caller.principal.name,
      readOnly: ctx.caller.principal.readOnly,
      allNamespaces: named === null,
      namespaces: named === null ? await storedNamespaces(ctx.caller.services.executor) : [...named],
      defaultNamespace: ctx.caller.services.config.DEFAULT_NAMESPACE,
    };
  },
  queueByKind: async (_, { namespace }, ctx) =>
    (await queueDepthByKind(ctx.caller.services.executor, ctx.caller.namespaceFor(namespace, 'read'))).map((depth) => ({
      ...depth,
      kind: depth.kind as never,
    })),
};

/** A memory's deep-path jobs (the memory itself was already checked against the caller's namespaces). */
export const memoryJobs: Pick<MemoryResolvers, 'jobs'> = {
  jobs: (memory, _, ctx) => jobsOfMemory(ctx.caller.services.executor, memory.id),
};

/** Adds the explorer's queries to the resolver map (registered in one place: resolvers/index.ts). */
export function withExplorer(resolvers: Resolvers): Resolvers {
  return { ...resolvers, Query: { ...resolvers.Query, ...explorerQueries }, Memory: { ...resolvers.Memory, ...memoryJobs } };
}
