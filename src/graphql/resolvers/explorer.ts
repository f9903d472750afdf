import { jobsOfMemory, queueDepthByKind, storedNamespaces } from '../../db/index.js';
import type { MemoryResolvers, QueryResolvers, Resolvers } from '../generated/types.js';

/** What the memory explorer (GET /explorer, src/http/explorer.ts) asks that no other root answers. */
export const explorerQueries: Pick<QueryResolvers, 'viewer' | 'queueByKind'> = {
  viewer: async (_, __, ctx) => {
    const named = ctx.principal.readableNamespaces;
    return {
      name: ctx.principal.name,
      readOnly: ctx.principal.readOnly,
      allNamespaces: named === null,
      namespaces: named === null ? await storedNamespaces(ctx.services.executor) : [...named],
      defaultNamespace: ctx.services.config.DEFAULT_NAMESPACE,
    };
  },
  queueByKind: async (_, { namespace }, ctx) =>
    (await queueDepthByKind(ctx.services.executor, ctx.namespaceFor(namespace, 'read'))).map((depth) => ({
      ...depth,
      kind: depth.kind as never,
    })),
};

/** A memory's deep-path jobs (the memory itself was already checked against the caller's namespaces). */
export const memoryJobs: Pick<MemoryResolvers, 'jobs'> = {
  jobs: (memory, _, ctx) => jobsOfMemory(ctx.services.executor, memory.id),
};

/** Adds the explorer's queries to the resolver map (registered in one place: resolvers/index.ts). */
export function withExplorer(resolvers: Resolvers): Resolvers {
  return { ...resolvers, Query: { ...resolvers.Query, ...explorerQueries }, Memory: { ...resolvers.Memory, ...memoryJobs } };
}
