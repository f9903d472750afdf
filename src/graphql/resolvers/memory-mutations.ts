import { forget, pin, updateMemory } from '../../api/index.js';
import type { MutationResolvers } from '../generated/types.js';

/** Mutations of one memory by id: looked up in the caller's namespaces first (NOT_FOUND otherwise). */
export const memoryMutations: Pick<MutationResolvers, 'forget' | 'pin' | 'unpin' | 'updateMemory'> = {
  forget: (_, { id, reason }, { caller }) => forget(caller, { id, reason }),
  pin: (_, { id }, { caller }) => pin(caller, { id, pinned: true }),
  unpin: (_, { id }, { caller }) => pin(caller, { id, pinned: false }),
  updateMemory: (_, { id, content }, { caller }) => updateMemory(caller, { id, content }),
};
