import { memories, memoriesPageOf, memory } from '../../api/index.js';
import { iso } from '../args.js';
import type { QueryResolvers } from '../generated/types.js';

/** Memories by id (namespace-filtered in the loader) and the paginated listing. */
export const memoryQueries: Pick<QueryResolvers, 'memory' | 'memories' | 'memoriesConnection'> = {
  memory: (_, { id }, { caller }) => memory(caller, id),
  memories: (_, { ids }, { caller }) => memories(caller, ids),
  memoriesConnection: (_, { namespace, filters, first, after }, { caller }) =>
    memoriesPageOf(caller, {
      namespace,
      first,
      after,
      filters: { ...filters, occurredAfter: iso(filters?.occurredAfter), occurredBefore: iso(filters?.occurredBefore) },
    }),
};
