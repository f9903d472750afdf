import { queueSessionCompression } from '../../deep/index.js';
import type { MutationResolvers, Resolvers } from '../generated/types.js';

/** compressSessions: queues the compress jobs of a namespace's old episodic sessions. */
export const compressMutations: Pick<MutationResolvers, 'compressSessions'> = {
  compressSessions: async (_, { namespace, olderThan, minSessions, maxSessions }, ctx) => {
    const jobs = await queueSessionCompression(ctx.caller.services.executor, {
      namespace: ctx.caller.namespaceFor(namespace, 'write'),
      // DateTimeResolver parses to a Date at run time, whatever the generated type says.
      olderThan: new Date(olderThan as unknown as string | Date).toISOString(),
      minSessions: minSessions ?? 2,
      maxSessions: maxSessions ?? 20,
      maxAttempts: ctx.caller.services.config.WORKER_MAX_ATTEMPTS,
    });
    return { sessions: jobs.length, jobs };
  },
};

/** Adds compressSessions to the resolver map (registered in one place: resolvers/index.ts). */
export function withCompression(resolvers: Resolvers): Resolvers {
  return { ...resolvers, Mutation: { ...resolvers.Mutation, ...compressMutations } };
}
