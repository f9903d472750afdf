import { ForbiddenError, ValidationError } from '../../errors.js';
import type { DocumentRecord } from '../../documents/index.js';
import { sessionTranscripts } from '../../sessions/index.js';
import { checkTranscript, saveTranscript } from '../../sessions/index.js';
import { latestCheckpoints, writeCheckpoint, type CheckpointRecord } from '../../sessions/index.js';
import { pageSize } from '../../api/index.js';
import type {
  DocumentResolvers,
  MutationResolvers,
  PipelineStatusResolvers,
  QueryResolvers,
  Resolvers,
  ResolversTypes,
} from '../generated/types.js';
import type { GraphQLContext } from '../context.js';
import { writableNamespaces } from '../../api/index.js';

/** Operator calls of the upkeep workers (src/upkeep). */
/** The scope of an operator call: one writable namespace, or (null) all of them for a "*" key. */
function operatorScope(
  ctx: GraphQLContext,
  namespace: string | null | undefined,
  allNamespaces: boolean | null | undefined,
): string | null {
  if (!allNamespaces) return ctx.caller.namespaceFor(namespace, 'write');
  if (writableNamespaces(ctx.caller) !== null) throw new ForbiddenError('allNamespaces needs an API key for every namespace ("*")');
  if (namespace) throw new ValidationError('give either namespace or allNamespaces, not both', { field: 'namespace' });
  return null;
}

const asCheckpoint = (c: CheckpointRecord) => c as unknown as ResolversTypes['Checkpoint'];

export const upkeepMutations: Pick<
  MutationResolvers,
  'runRetention' | 'ingestDocument' | 'runMaintenance' | 'aspectFeedback' | 'checkpoint'
> = {
  checkpoint: async (_, { input }, ctx) =>
    asCheckpoint(
      await writeCheckpoint(ctx.caller.services.executor, { ...input, namespace: ctx.caller.namespaceFor(input.namespace, 'write') }),
    ),
  aspectFeedback: async (_, { namespace, sessionId, memoryIds }, ctx) => {
    const r = await ctx.caller.services.upkeep.feedback.apply({
      namespace: ctx.caller.namespaceFor(namespace, 'write'),
      sessionId,
      memoryIds,
      actor: ctx.caller.principal.name,
    });
    return {
      applied: r.applied,
      aspectsUpdated: r.aspectsUpdated,
      confirmations: r.ftsConfirmations,
      decayedAspects: r.decayedAspects,
      propagatedAttributes: r.propagatedAttributes,
    };
  },
  runMaintenance: (_, { namespace, allNamespaces, mode }, ctx) =>
    ctx.caller.services.upkeep.runMaintenance(operatorScope(ctx, namespace, allNamespaces), mode ?? 'observe'),

  ingestDocument: async (_, { input }, ctx) => {
    const namespace = ctx.caller.namespaceFor(input.namespace, 'write');
    return asDocument(await ctx.caller.services.upkeep.ingestDocument({ ...input, namespace }));
  },

  // Every namespace at once only for a key that may write all of them (or open mode).
  runRetention: (_, { namespace, allNamespaces, dryRun }, ctx) =>
    ctx.caller.services.upkeep.runRetention(operatorScope(ctx, namespace, allNamespaces), dryRun ?? false),
};

// The Document type's computed fields (progress, chunks) are resolved below from the record.
const asDocument = (d: DocumentRecord) => d as unknown as ResolversTypes['Document'];

export const upkeepQueries: Pick<QueryResolvers, 'document' | 'documents' | 'checkpoints'> = {
  checkpoints: async (_, { namespace, sessionId, last }, ctx) =>
    (
      await latestCheckpoints(ctx.caller.services.executor, ctx.caller.namespaceFor(namespace, 'read'), sessionId, pageSize(last, 50, 5))
    ).map(asCheckpoint),
  // A document outside the caller's namespaces is null, like a missing one.
  document: async (_, { id }, ctx) => {
    const document = await ctx.caller.services.upkeep.documents.get(id);
    return document && ctx.caller.principal.canRead(document.namespace) ? asDocument(document) : null;
  },
  documents: async (_, { namespace, first, after }, ctx) => {
    const page = await ctx.caller.services.upkeep.documents.list(
      ctx.caller.namespaceFor(namespace, 'read'),
      pageSize(first, ctx.caller.services.config.MAX_PAGE_SIZE),
      after,
    );
    return page as unknown as ResolversTypes['DocumentConnection'];
  },
};

export const Document: DocumentResolvers = {
  progress: (d) => {
    const r = d as unknown as DocumentRecord;
    return r.status === 'DONE' ? 1 : r.chunksTotal > 0 ? r.chunksDone / r.chunksTotal : 0;
  },
  chunks: async (d, { first }, ctx) =>
    ctx.caller.services.upkeep.documents.parts(
      (d as unknown as DocumentRecord).id,
      pageSize(first, ctx.caller.services.config.MAX_PAGE_SIZE),
    ),
};

/**
 * Process-wide upkeep state on pipelineStatus. It counts every namespace of this replica, so
 * only a caller who may read all of them (a "*" key, or open mode) sees it; others get null.
 */
export const PipelineStatusUpkeep: Pick<PipelineStatusResolvers, 'embeddings' | 'retention' | 'maintenance' | 'feedback'> = {
  // The namespace's own feedback counters (attached by the pipelineStatus wrapper below).
  feedback: (status, _, ctx) =>
    ctx.caller.services.upkeep.feedback.snapshot((status as { feedbackNamespace?: string }).feedbackNamespace ?? ''),
  maintenance: (_, __, ctx) =>
    ctx.caller.principal.readableNamespaces === null ? ctx.caller.services.upkeep.maintenance.lastReport() : null,
  embeddings: (_, __, ctx) => (ctx.caller.principal.readableNamespaces === null ? ctx.caller.services.upkeep.trackerStats() : null),
  retention: (_, __, ctx) => (ctx.caller.principal.readableNamespaces === null ? ctx.caller.services.upkeep.lastRetentionReport() : null),
};

type Fn = (...args: any[]) => any; // eslint-disable-line @typescript-eslint/no-explicit-any

/**
 * Transcripts around the existing resolvers: `remember` checks a transcript before the memory is
 * written and stores it after (rememberBatch refuses an item carrying one, in mutation.ts);
 * `recall(expand: true)` adds the transcripts of the result's sessions.
 */
function withTranscripts(resolvers: Resolvers): Pick<Resolvers, 'Query' | 'Mutation'> {
  const remember = resolvers.Mutation!.remember as Fn;
  const recall = resolvers.Query!.recall as Fn;
  const pipelineStatus = resolvers.Query!.pipelineStatus as Fn;
  return {
    Mutation: {
      remember: async (parent, args, ctx, info) => {
        const transcript = checkTranscript(args.input, ctx.caller.services.config.MAX_CONTENT_CHARS);
        const result = await remember(parent, args, ctx, info);
        if (transcript) {
          const namespace = ctx.caller.namespaceFor(args.input.namespace, 'write');
          await saveTranscript(ctx.caller.services.executor, {
            namespace,
            sessionId: args.input.sessionId!,
            transcript,
            actor: ctx.caller.principal.name,
          });
        }
        return result;
      },
    },
    Query: {
      pipelineStatus: async (parent, args, ctx, info) => ({
        ...(await pipelineStatus(parent, args, ctx, info)),
        feedbackNamespace: ctx.caller.namespaceFor(args.namespace, 'read'),
      }),
      recall: async (parent, args, ctx, info) => {
        const result = await recall(parent, args, ctx, info);
        if (!args.expand) return result;
        const memories = (result.items as Array<{ memory: { namespace: string; sessionId?: string | null } }>).map((i) => i.memory);
        return { ...result, transcripts: await sessionTranscripts(ctx.caller.services.executor, memories) };
      },
    },
  };
}

/** Adds the upkeep fields to the resolver map (registered in one place: resolvers/index.ts). */
export function withUpkeep(resolvers: Resolvers): Resolvers {
  const transcripts = withTranscripts(resolvers);
  return {
    ...resolvers,
    Query: { ...resolvers.Query, ...upkeepQueries, ...transcripts.Query },
    Mutation: { ...resolvers.Mutation, ...upkeepMutations, ...transcripts.Mutation },
    Document,
    PipelineStatus: { ...resolvers.PipelineStatus, ...PipelineStatusUpkeep },
  };
}
