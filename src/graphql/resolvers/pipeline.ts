import { jobs, pipelineStatus, requeueJob, revertProposal } from '../../api/index.js';
import type { JobResolvers, MutationResolvers, QueryResolvers } from '../generated/types.js';

/** The deep-path queue (src/api). */
export const pipelineQueries: Pick<QueryResolvers, 'jobs' | 'pipelineStatus'> = {
  jobs: (_, { namespace, status, kind, first, after }, { caller }) => jobs(caller, { namespace, status, kind, first, after }),
  pipelineStatus: async (_, { namespace }, { caller }) => {
    const status = await pipelineStatus(caller, { namespace });
    return {
      ...status,
      lastErrors: status.lastErrors.map((e) => ({ ...e, kind: e.kind as never })),
      llm: { ...status.llm, byKind: status.llm.byKind.map((r) => ({ ...r, kind: r.kind as never })) },
    } as never;
  },
};

export const pipelineMutations: Pick<MutationResolvers, 'requeueJob' | 'revertProposal'> = {
  requeueJob: (_, { id }, { caller }) => requeueJob(caller, id),
  revertProposal: (_, { eventId, reason }, { caller }) => revertProposal(caller, { eventId, reason }),
};

export const Job: JobResolvers = {
  kind: (j) => j.kind as never,
  status: (j) => j.status as never,
  memory: (j, _, { caller }) => (j.memoryId ? caller.loaders.memoryById.load(j.memoryId) : null),
};
