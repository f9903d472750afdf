import { sessionTranscripts } from '../../sessions/index.js';
import { checkTranscript, saveTranscript } from '../../sessions/index.js';
import {
  aspectFeedback,
  checkpoint,
  checkpoints,
  document,
  documentChunks,
  documentProgress,
  documents,
  embeddingTracker,
  feedbackTelemetry,
  ingestDocument,
  lastMaintenance,
  lastRetention,
  runMaintenance,
  runRetention,
  type CheckpointRecord,
  type DocumentRecord,
} from '../../api/index.js';
import type {
  DocumentResolvers,
  MutationResolvers,
  PipelineStatusResolvers,
  QueryResolvers,
  Resolvers,
  ResolversTypes,
} from '../generated/types.js';

/** Operator calls of the upkeep workers (src/upkeep). */
const asCheckpoint = (c: CheckpointRecord) => c as unknown as ResolversTypes['Checkpoint'];

export const upkeepMutations: Pick<
  MutationResolvers,
  'runRetention' | 'ingestDocument' | 'runMaintenance' | 'aspectFeedback' | 'checkpoint'
> = {
  checkpoint: async (_, { input }, { caller }) => asCheckpoint(await checkpoint(caller, input)),
  aspectFeedback: (_, { namespace, sessionId, memoryIds }, { caller }) => aspectFeedback(caller, { namespace, sessionId, memoryIds }),
  runMaintenance: (_, { namespace, allNamespaces, mode }, { caller }) => runMaintenance(caller, { namespace, allNamespaces, mode }),
  ingestDocument: async (_, { input }, { caller }) => asDocument(await ingestDocument(caller, input)),
  // Every namespace at once only for a key that may write all of them (or open mode).
  runRetention: (_, { namespace, allNamespaces, dryRun }, { caller }) => runRetention(caller, { namespace, allNamespaces, dryRun }),
};

// The Document type's computed fields (progress, chunks) are resolved below from the record.
const asDocument = (d: DocumentRecord) => d as unknown as ResolversTypes['Document'];

export const upkeepQueries: Pick<QueryResolvers, 'document' | 'documents' | 'checkpoints'> = {
  checkpoints: async (_, { namespace, sessionId, last }, { caller }) =>
    (await checkpoints(caller, { namespace, sessionId, last })).map(asCheckpoint),
  document: async (_, { id }, { caller }) => {
    const found = await document(caller, id);
    return found ? asDocument(found) : null;
  },
  documents: async (_, { namespace, first, after }, { caller }) =>
    (await documents(caller, { namespace, first, after })) as unknown as ResolversTypes['DocumentConnection'],
};

export const Document: DocumentResolvers = {
  progress: (d) => documentProgress(d as unknown as DocumentRecord),
  chunks: (d, { first }, { caller }) => documentChunks(caller, (d as unknown as DocumentRecord).id, first),
};

/** Upkeep state on pipelineStatus: the namespace's feedback counters; process-wide state for a "*" key only. */
export const PipelineStatusUpkeep: Pick<PipelineStatusResolvers, 'embeddings' | 'retention' | 'maintenance' | 'feedback'> = {
  // The namespace's own feedback counters (attached by the pipelineStatus wrapper below).
  feedback: (status, _, { caller }) => feedbackTelemetry(caller, (status as { feedbackNamespace?: string }).feedbackNamespace ?? ''),
  maintenance: (_, __, { caller }) => lastMaintenance(caller),
  embeddings: (_, __, { caller }) => embeddingTracker(caller),
  retention: (_, __, { caller }) => lastRetention(caller),
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
