import {
  aspect,
  attributeHistory,
  checkpoints,
  document,
  documents,
  entities,
  entity,
  exportNamespace,
  health,
  iso,
  jobs,
  memories,
  memoriesPageOf,
  memory,
  neighbors,
  pipelineStatus,
  queueByKind,
  recall,
  recoverSession,
  relations,
  search,
  session,
  timeline,
  viewer,
} from '../../api/index.js';
import type { QueryResolvers } from '../generated/types.js';
import { recallResult } from './recall.js';

/** Every root query: its arguments mapped to an operation of src/api, its result to the schema's type. */
export const Query: QueryResolvers = {
  health: (_, __, { caller }) => health(caller),
  viewer: (_, __, { caller }) => viewer(caller),

  // Recall, then progressive disclosure over the same ranking.
  recall: async (_, args, { caller }) =>
    recallResult(
      await recall(caller, {
        query: args.query,
        namespace: args.namespace,
        limit: args.limit,
        tokenBudget: args.tokenBudget ?? undefined,
        asOf: iso(args.asOf),
        filters: args.filters,
        expand: args.expand,
        sessionId: args.sessionId,
      }),
      args.explain === true,
    ),
  search: async (_, args, { caller }) => {
    const result = await search(caller, {
      query: args.query,
      namespace: args.namespace,
      limit: args.limit ?? 20,
      offset: args.offset ?? 0,
      filters: args.filters,
    });
    return { ...result, hits: result.hits.map((h) => ({ ...h, type: h.type as never })) };
  },
  timeline: (_, args, { caller }) =>
    timeline(caller, {
      namespace: args.namespace,
      anchor: args.anchor,
      query: args.query,
      before: args.before ?? 5,
      after: args.after ?? 5,
    }),

  // Memories by id (namespace-filtered in the loader) and the paginated listing.
  memory: (_, { id }, { caller }) => memory(caller, id),
  memories: (_, { ids }, { caller }) => memories(caller, ids),
  memoriesConnection: (_, { namespace, filters, first, after }, { caller }) =>
    memoriesPageOf(caller, {
      namespace,
      first,
      after,
      filters: { ...filters, occurredAfter: iso(filters?.occurredAfter), occurredBefore: iso(filters?.occurredBefore) },
    }),

  // The entity graph.
  entity: (_, { id, name, namespace }, { caller }) => entity(caller, { id, name, namespace }),
  entities: (_, { namespace, search, type, first, after }, { caller }) => entities(caller, { namespace, search, type, first, after }),
  aspect: (_, { id }, { caller }) => aspect(caller, id),
  attributeHistory: (_, { entityId, aspect }, { caller }) => attributeHistory(caller, { entityId, aspect }),
  relations: (_, { entityId, direction, type }, { caller }) => relations(caller, { entityId, direction: direction ?? 'BOTH', type }),
  neighbors: (_, { entityId, depth }, { caller }) => neighbors(caller, { entityId, depth }),

  // The deep path and upkeep.
  jobs: (_, { namespace, status, kind, first, after }, { caller }) => jobs(caller, { namespace, status, kind, first, after }),
  pipelineStatus: (_, { namespace }, { caller }) => pipelineStatus(caller, { namespace }),
  queueByKind: async (_, { namespace }, { caller }) =>
    (await queueByKind(caller, { namespace })).map((depth) => ({ ...depth, kind: depth.kind as never })),
  document: (_, { id }, { caller }) => document(caller, id),
  documents: (_, { namespace, first, after }, { caller }) => documents(caller, { namespace, first, after }),

  // Sessions.
  session: (_, { namespace, sessionId }, { caller }) => session(caller, { namespace, sessionId }),
  recoverSession: async (_, { namespace, sessionId, budgetChars }, { caller }) => {
    const r = await recoverSession(caller, { namespace, sessionId, budgetChars });
    return {
      session: r.session,
      digest: r.digest,
      chars: r.chars,
      budgetChars: r.budget,
      omitted: r.omitted,
      checkpointId: r.checkpointId,
    };
  },
  checkpoints: (_, { namespace, sessionId, last }, { caller }) => checkpoints(caller, { namespace, sessionId, last }),

  // A namespace as JSON Lines, a page at a time (docs/export-import.md).
  exportNamespace: async (_, { namespace, after, first, vectors }, { caller }) => {
    const page = await exportNamespace(caller, { namespace, after, first, vectors });
    return { header: JSON.stringify(page.header), lines: page.lines.map((line) => JSON.stringify(line)), cursor: page.cursor };
  },
};
