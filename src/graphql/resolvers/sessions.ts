import { endSession, recoverSession, session, sessionStats, sessionSummaryJob, startSession } from '../../api/index.js';
import type { CheckpointRecord } from '../../sessions/index.js';
import type { SessionRecord } from '../../sessions/index.js';
import type { MutationResolvers, QueryResolvers, Resolvers, ResolversTypes, SessionResolvers } from '../generated/types.js';
import type { GraphQLContext } from '../context.js';

/** Sessions (src/sessions): start, recover, end, and the counting of recall and remember calls that name one. */

const asSession = (s: SessionRecord) => s as unknown as ResolversTypes['Session'];
const asCheckpoint = (c: CheckpointRecord | null | undefined) => (c ?? null) as unknown as ResolversTypes['Checkpoint'] | null;
const record = (s: unknown) => s as SessionRecord;

export const sessionQueries: Pick<QueryResolvers, 'session' | 'recoverSession'> = {
  session: async (_, { namespace, sessionId }, { caller }) => {
    const found = await session(caller, { namespace, sessionId });
    return found ? asSession(found) : null;
  },
  recoverSession: async (_, { namespace, sessionId, budgetChars }, { caller }) => {
    const r = await recoverSession(caller, { namespace, sessionId, budgetChars });
    return {
      session: asSession(r.session),
      digest: r.digest,
      chars: r.chars,
      budgetChars: r.budget,
      omitted: r.omitted,
      checkpointId: r.checkpointId,
    } as ResolversTypes['SessionRecovery'];
  },
};

export const sessionMutations: Pick<MutationResolvers, 'startSession' | 'endSession'> = {
  startSession: async (_, { input }, { caller }) => {
    const r = await startSession(caller, input);
    return { ...r, session: asSession(r.session) } as ResolversTypes['SessionStart'];
  },
  endSession: async (_, { namespace, sessionId, transcript }, { caller }) =>
    asSession((await endSession(caller, { namespace, sessionId, transcript })).session),
};

export const Session: SessionResolvers = {
  injectedMemoryIds: (s) => record(s).injectedIds,
  keywordHits: (s) => record(s).keywordHits.length,
  summaryJob: (s, _, { caller }) => sessionSummaryJob(caller, record(s)),
  summary: (s) => {
    const r = record(s);
    if (!r.summarizedAt) return null;
    return {
      request: r.summaryRequest ?? '',
      investigated: r.summaryInvestigated ?? '',
      learned: r.summaryLearned ?? '',
      nextSteps: r.summaryNextSteps ?? '',
      summarizer: r.summarizer ?? '',
      at: r.summarizedAt,
    };
  },
  continuity: (s) => {
    const r = record(s);
    if (!r.summarizedAt) return null;
    return {
      score: r.continuityScore ?? 0,
      injected: r.injectedIds.length,
      used: r.continuityUsed ?? 0,
      memories: r.injectedIds.map((memoryId, i) => ({ memoryId, relevance: r.continuityRelevance[i] ?? 0 })),
      feedbackApplied: r.feedbackApplied === true,
    };
  },
};

type Fn = (...args: any[]) => any; // eslint-disable-line @typescript-eslint/no-explicit-any

interface ExplainedItem {
  memory: { id: string };
  explain: { keyword?: unknown } | null;
}

/**
 * recall(sessionId) counts a prompt (its query, and the memories it found by keyword) and
 * remember(input.sessionId) a tool result; either may fire the session's periodic checkpoint,
 * returned with the answer. A session never started (or ended) is left alone.
 */
function withSessionCounting(resolvers: Resolvers): Pick<Resolvers, 'Query' | 'Mutation'> {
  const recall = resolvers.Query!.recall as Fn;
  const remember = resolvers.Mutation!.remember as Fn;
  return {
    Query: {
      recall: async (parent, args, ctx, info) => {
        // Counting writes: a read-only key's recall is answered and not counted.
        if (!args.sessionId || ctx.caller.principal.readOnly) return recall(parent, args, ctx, info);
        // The explanation says which results the keyword leg found; it is dropped again unless asked for.
        const result = await recall(parent, { ...args, explain: true }, ctx, info);
        const items = result.items as ExplainedItem[];
        const observed = await ctx.caller.services.sessions.observeQuietly({
          namespace: ctx.caller.namespaceFor(args.namespace, 'read'),
          sessionId: args.sessionId,
          kind: 'prompt',
          query: args.query,
          keywordHits: items.filter((i) => i.explain?.keyword).map((i) => i.memory.id),
        });
        return {
          ...result,
          items: args.explain ? items : items.map((i) => ({ ...i, explain: null })),
          checkpoint: asCheckpoint(observed?.checkpoint),
        };
      },
    },
    Mutation: {
      remember: async (parent, args, ctx, info) => {
        const result = await remember(parent, args, ctx, info);
        if (!args.input.sessionId) return result;
        const observed = await ctx.caller.services.sessions.observeQuietly({
          namespace: ctx.caller.namespaceFor(args.input.namespace, 'write'),
          sessionId: args.input.sessionId,
          kind: 'tool',
          remembered: (result as { memory: { content: string } }).memory.content,
        });
        return { ...result, checkpoint: asCheckpoint(observed?.checkpoint) };
      },
    },
  };
}

/** Adds the session fields to the resolver map (registered in one place: resolvers/index.ts). */
export function withSessions(resolvers: Resolvers): Resolvers {
  const counting = withSessionCounting(resolvers);
  return {
    ...resolvers,
    Query: { ...resolvers.Query, ...sessionQueries, ...counting.Query },
    Mutation: { ...resolvers.Mutation, ...sessionMutations, ...counting.Mutation },
    Session,
    PipelineStatus: {
      ...resolvers.PipelineStatus,
      // The namespace pipelineStatus was asked about (attached by the upkeep wrapper).
      sessions: (status, _, { caller }) =>
        sessionStats(caller, (status as { feedbackNamespace?: string }).feedbackNamespace ?? caller.limits.defaultNamespace),
    },
    Memory: { ...resolvers.Memory, stale: (m) => (m as { stale?: boolean | null }).stale === true },
    ScoreExplain: { ...resolvers.ScoreExplain, stale: (e) => (e as { stale?: number }).stale ?? 1 },
  };
}
