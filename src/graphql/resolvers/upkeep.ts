import { ForbiddenError, ValidationError } from '../../errors.js';
import type { DocumentRecord } from '../../documents/index.js';
import { pageSize } from '../args.js';
import type { DocumentResolvers, MutationResolvers, PipelineStatusResolvers, QueryResolvers, Resolvers, ResolversTypes } from '../generated/types.js';
import { writableNamespaces } from '../guards.js';

/** Operator calls of the upkeep workers (src/upkeep). */
export const upkeepMutations: Pick<MutationResolvers, 'runRetention' | 'ingestDocument'> = {
  ingestDocument: async (_, { input }, ctx) => {
    const namespace = ctx.namespaceFor(input.namespace, 'write');
    return asDocument(await ctx.services.upkeep.ingestDocument({ ...input, namespace }));
  },

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

// The Document type's computed fields (progress, chunks) are resolved below from the record.
const asDocument = (d: DocumentRecord) => d as unknown as ResolversTypes['Document'];

export const upkeepQueries: Pick<QueryResolvers, 'document' | 'documents'> = {
  // A document outside the caller's namespaces is null, like a missing one.
  document: async (_, { id }, ctx) => {
    const document = await ctx.services.upkeep.documents.get(id);
    return document && ctx.principal.canRead(document.namespace) ? asDocument(document) : null;
  },
  documents: async (_, { namespace, first, after }, ctx) => {
    const page = await ctx.services.upkeep.documents.list(ctx.namespaceFor(namespace, 'read'), pageSize(first, ctx.services.config.MAX_PAGE_SIZE), after);
    return page as unknown as ResolversTypes['DocumentConnection'];
  },
};

export const Document: DocumentResolvers = {
  progress: (d) => {
    const r = d as unknown as DocumentRecord;
    return r.status === 'DONE' ? 1 : r.chunksTotal > 0 ? r.chunksDone / r.chunksTotal : 0;
  },
  chunks: async (d, { first }, ctx) =>
    ctx.services.upkeep.documents.parts((d as unknown as DocumentRecord).id, pageSize(first, ctx.services.config.MAX_PAGE_SIZE)),
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
    Query: { ...resolvers.Query, ...upkeepQueries },
    Mutation: { ...resolvers.Mutation, ...upkeepMutations },
    Document,
    PipelineStatus: { ...resolvers.PipelineStatus, ...PipelineStatusUpkeep },
  };
}
