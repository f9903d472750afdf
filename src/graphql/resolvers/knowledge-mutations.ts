import type { RelationView } from '../../db/index.js';
import type { MutationResolvers } from '../generated/types.js';
import type { GraphQLContext } from '../context.js';

/** Structured writes: each maps its arguments to the knowledge service, after the namespace check. */
export const knowledgeMutations: Pick<MutationResolvers, 'createEntity' | 'relate' | 'assertFact' | 'mergeEntities' | 'deleteNamespace'> = {
  createEntity: async (_, args, ctx) => {
    const { entity, created } = await ctx.services.knowledge.createEntity(actor(ctx, args.namespace), args);
    ctx.loaders.entityById.clear(entity.id).prime(entity.id, entity);
    return { entity, created };
  },

  relate: async (_, args, ctx) => {
    const row = await ctx.services.knowledge.relate(actor(ctx, args.namespace), args);
    const view: RelationView = { ...row, direction: 'OUT' };
    return view;
  },

  assertFact: async (_, args, ctx) => {
    const result = await ctx.services.knowledge.assertFact(actor(ctx, args.namespace), args);
    if (result.memory) ctx.loaders.attributesByMemory.clear(result.memory.id);
    return result;
  },

  mergeEntities: async (_, args, ctx) => {
    const { entity, merged } = await ctx.services.knowledge.mergeEntities(actor(ctx, args.namespace), args);
    ctx.loaders.entityById.clear(entity.id).prime(entity.id, entity);
    return {
      entity,
      movedMentions: merged.mentions,
      movedAspects: merged.aspects,
      movedAttributes: merged.attributes,
      movedRelations: merged.relations,
    };
  },

  deleteNamespace: async (_, { namespace, confirm }, ctx) => {
    ctx.namespaceFor(namespace, 'write');
    return ctx.services.knowledge.deleteNamespace(namespace, confirm);
  },
};

function actor(ctx: GraphQLContext, namespace: string | null | undefined) {
  return { namespace: ctx.namespaceFor(namespace, 'write'), actor: ctx.principal.name };
}
