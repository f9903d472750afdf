import { memoryJobs, queueByKind, viewer } from '../../api/index.js';
import type { MemoryResolvers, QueryResolvers, Resolvers } from '../generated/types.js';

/** What the memory explorer (GET /explorer, src/http/explorer.ts) asks that no other root answers. */
export const explorerQueries: Pick<QueryResolvers, 'viewer' | 'queueByKind'> = {
  viewer: (_, __, { caller }) => viewer(caller),
  queueByKind: async (_, { namespace }, { caller }) =>
    (await queueByKind(caller, { namespace })).map((depth) => ({ ...depth, kind: depth.kind as never })),
};

/** A memory's deep-path jobs (the memory itself was already checked against the caller's namespaces). */
export const MemoryJobs: Pick<MemoryResolvers, 'jobs'> = {
  jobs: (memory, _, { caller }) => memoryJobs(caller, memory.id),
};

/** Adds the explorer's queries to the resolver map (registered in one place: resolvers/index.ts). */
export function withExplorer(resolvers: Resolvers): Resolvers {
  return { ...resolvers, Query: { ...resolvers.Query, ...explorerQueries }, Memory: { ...resolvers.Memory, ...MemoryJobs } };
}
