import { compressSessions } from '../../api/index.js';
import type { MutationResolvers, Resolvers } from '../generated/types.js';

/** compressSessions: queues the compress jobs of a namespace's old episodic sessions. */
export const compressMutations: Pick<MutationResolvers, 'compressSessions'> = {
  compressSessions: (_, { namespace, olderThan, minSessions, maxSessions }, { caller }) =>
    compressSessions(caller, {
      namespace,
      // DateTimeResolver parses to a Date at run time, whatever the generated type says.
      olderThan: new Date(olderThan as unknown as string | Date).toISOString(),
      minSessions,
      maxSessions,
    }),
};

/** Adds compressSessions to the resolver map (registered in one place: resolvers/index.ts). */
export function withCompression(resolvers: Resolvers): Resolvers {
  return { ...resolvers, Mutation: { ...resolvers.Mutation, ...compressMutations } };
}
