import { queueDepthByKind, storedNamespaces } from '../../db/queries/explorer.js';
import type { QueryResolvers, Resolvers } from '../generated/types.js';

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
    (await queueDepthByKind(ctx.services.executor, ctx.namespaceFor(namespace, 'read'))).map((depth) => ({ ...depth, kind: depth.kind as never })),
};

/** Adds the explorer's queries to the resolver map (registered in one place: resolvers/index.ts). */
export function withExplorer(resolvers: Resolvers): Resolvers {
  return { ...resolvers, Query: { ...resolvers.Query, ...explorerQueries } };
}
