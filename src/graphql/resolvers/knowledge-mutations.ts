import type { RelationView } from '../../db/index.js';
import type { MutationResolvers } from '../generated/types.js';
import type { GraphQLContext } from '../context.js';

/** Structured writes: each maps its arguments to the knowledge service, after the namespace check. */
export const knowledgeMutations: Pick<MutationResolvers, 'createEntity' | 'relate' | 'assertFact' | 'mergeEntities' | 'deleteNamespace'> = {
  createEntity: async (_, args, ctx) => {
    const { entity, created } = await ctx.caller.services.knowledge.createEntity(actor(ctx, args.namespace), args);
    ctx.caller.loaders.entityById.clear(entity.id).prime(entity.id, entity);
    return { entity, created };
  },

  relate: async (_, args, ctx) => {
    const row = await ctx.caller.services.knowledge.relate(actor(ctx, args.namespace), args);
    const view: RelationView = { ...row, direction: 'OUT' };
    return view;
  },

  assertFact: async (_, args, ctx) => {
    const result = await ctx.caller.services.knowledge.assertFact(actor(ctx, args.namespace), args);
    if (result.memory) ctx.caller.loaders.attributesByMemory.clear(result.memory.id);
    return result;
  },

  mergeEntities: async (_, args, ctx) => {
    const { entity, merged } = await ctx.caller.services.knowledge.mergeEntities(actor(ctx, args.namespace), args);
    ctx.caller.loaders.entityById.clear(entity.id).prime(entity.id, entity);
    return {
      entity,
      movedMentions: merged.mentions,
      movedAspects: merged.aspects,
      movedAttributes: merged.attributes,
      movedRelations: merged.relations,
    };
  },

  deleteNamespace: async (_, { namespace, confirm }, ctx) => {
    ctx.caller.namespaceFor(namespace, 'write');
    return ctx.caller.services.knowledge.deleteNamespace(namespace, confirm);
  },
};

function actor(ctx: GraphQLContext, namespace: string | null | undefined) {
  return { namespace: ctx.caller.namespaceFor(namespace, 'write'), actor: ctx.caller.principal.name };
}
