import { assertFact, createEntity, deleteNamespace, mergeEntities, relate } from '../../api/index.js';
import type { MutationResolvers } from '../generated/types.js';

/** Structured writes, no LLM (src/api). */
export const knowledgeMutations: Pick<MutationResolvers, 'createEntity' | 'relate' | 'assertFact' | 'mergeEntities' | 'deleteNamespace'> = {
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
};
