import {
  aspectFeedback,
  assertFact,
  checkpoint,
  compressSessions,
  createEntity,
  deleteNamespace,
  importNamespace,
  endSession,
  forget,
  ingestDocument,
  mergeEntities,
  pin,
  relate,
  remember,
  rememberBatch,
  requeueJob,
  revertProposal,
  runMaintenance,
  runRetention,
  sessionPrompt,
  startSession,
  updateMemory,
} from '../../api/index.js';
import type { MutationResolvers } from '../generated/types.js';

/** Every mutation: its arguments mapped to an operation of src/api, its result to the schema's type. */
export const Mutation: MutationResolvers = {
  // Memories.
  remember: (_, { input }, { caller }) => remember(caller, input),
  rememberBatch: (_, { inputs }, { caller }) => rememberBatch(caller, inputs),
  forget: (_, { id, reason }, { caller }) => forget(caller, { id, reason }),
  pin: (_, { id }, { caller }) => pin(caller, { id, pinned: true }),
  unpin: (_, { id }, { caller }) => pin(caller, { id, pinned: false }),
  updateMemory: (_, { id, content }, { caller }) => updateMemory(caller, { id, content }),

  // Structured writes, no LLM.
  createEntity: async (_, args, { caller }) => {
    const { entity, created } = await createEntity(caller, args);
    return { entity, created };
  },
  relate: (_, args, { caller }) => relate(caller, args),
  assertFact: (_, args, { caller }) => assertFact(caller, args),
  mergeEntities: async (_, args, { caller }) => {
    const { entity, merged } = await mergeEntities(caller, args);
    return {
      entity,
      movedMentions: merged.mentions,
      movedAspects: merged.aspects,
      movedAttributes: merged.attributes,
      movedRelations: merged.relations,
    };
  },
  deleteNamespace: (_, { namespace, confirm }, { caller }) => deleteNamespace(caller, { namespace, confirm }),

  // The deep path and upkeep; every namespace at once only for a key that may write all of them.
  requeueJob: (_, { id }, { caller }) => requeueJob(caller, id),
  revertProposal: (_, { eventId, reason }, { caller }) => revertProposal(caller, { eventId, reason }),
  ingestDocument: (_, { input }, { caller }) => ingestDocument(caller, input),
  runRetention: (_, { namespace, allNamespaces, dryRun }, { caller }) => runRetention(caller, { namespace, allNamespaces, dryRun }),
  runMaintenance: (_, { namespace, allNamespaces, mode }, { caller }) => runMaintenance(caller, { namespace, allNamespaces, mode }),
  compressSessions: (_, { namespace, olderThan, minSessions, maxSessions }, { caller }) =>
    compressSessions(caller, {
      namespace,
      // DateTimeResolver parses to a Date at run time, whatever the generated type says.
      olderThan: new Date(olderThan as unknown as string | Date).toISOString(),
      minSessions,
      maxSessions,
    }),

  // Sessions.
  startSession: (_, { input }, { caller }) => startSession(caller, input),
  endSession: async (_, { namespace, sessionId, transcript }, { caller }) =>
    (await endSession(caller, { namespace, sessionId, transcript })).session,
  checkpoint: (_, { input }, { caller }) => checkpoint(caller, input),
  sessionPrompt: async (_, { namespace, sessionId, prompt, recall, limit, tokenBudget, eventId }, { caller }) => {
    const { observed, recalled } = await sessionPrompt(caller, {
      namespace,
      sessionId,
      prompt,
      eventId,
      recall: recall === true,
      limit: limit ?? 5,
      tokenBudget: tokenBudget ?? 400,
    });
    return {
      counted: observed !== null,
      session: observed?.session ?? null,
      checkpoint: observed?.checkpoint ?? null,
      memories: recalled?.items.length ?? 0,
      prompt: recalled ? recalled.prompt : null,
    };
  },
  aspectFeedback: (_, { namespace, sessionId, memoryIds }, { caller }) => aspectFeedback(caller, { namespace, sessionId, memoryIds }),

  // Lines of an export into a namespace (docs/export-import.md).
  importNamespace: (_, { namespace, lines }, { caller }) => importNamespace(caller, { namespace, lines }),
};
