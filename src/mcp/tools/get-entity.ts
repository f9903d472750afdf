import { z } from 'zod';
import { describeEntity, type EntityDescription } from '../../api/index.js';
import { ALIAS_SHARE, clipper, DESCRIPTION_SHARE, FACT_SHARE, FACTS_SHARE, LIST_OF_NAMES_SHARE, NAME_SHARE } from '../answers.js';
import { fitItems } from '../budget.js';
import { maxTokens, namespace } from '../schemas.js';
import { defineTool } from '../tool.js';
import type { ToolContext } from '../tool-context.js';

export default defineTool({
  name: 'get_entity',
  description: 'An entity by name: its type, aspects with their active attributes (current facts), and relations to other entities.',
  input: z.object({ name: z.string(), namespace, max_tokens: maxTokens }),
  annotations: { readOnlyHint: true },
  async call(args, caller, ctx) {
    return describeWithin(await describeEntity(caller, { namespace: args.namespace, name: args.name }), args.max_tokens, ctx);
  },
});

/**
 * get_entity's answer within `maxTokens`: every field clipped to its share (an entity gains an
 * alias per merge, a description can be long), then facts up to three quarters of the budget and
 * relations in what is left; each list says how many it left out (`<list>_omitted`), and
 * `relations_total` how many relations the entity has in all (the list holds the most mentioned).
 */
function describeWithin(d: EntityDescription, maxTokens: number, ctx: ToolContext): string {
  const clip = clipper(maxTokens, ctx);
  const { entity } = d;
  const names = (list: readonly string[], share: number) =>
    fitItems(
      list.map((n) => clip(n, ALIAS_SHARE)),
      Math.floor(maxTokens * share),
      ctx.count,
    );
  const aliases = names(entity.aliases ?? [], LIST_OF_NAMES_SHARE);
  const aspects = names(
    d.aspects.map((a) => a.name),
    LIST_OF_NAMES_SHARE,
  );
  const head = {
    id: entity.id,
    name: clip(entity.name, NAME_SHARE),
    type: entity.type,
    description: entity.description == null ? null : clip(entity.description, DESCRIPTION_SHARE),
    aliases: aliases.kept,
    ...(aliases.omitted > 0 ? { aliases_omitted: aliases.omitted } : {}),
    mentions: entity.mentions,
    aspects: aspects.kept,
    ...(aspects.omitted > 0 ? { aspects_omitted: aspects.omitted } : {}),
  };
  const facts = d.aspects.flatMap((a) =>
    a.attributes.map((attr) => ({
      aspect: clip(a.name, ALIAS_SHARE),
      content: clip(attr.content, FACT_SHARE),
      kind: attr.kind,
      confidence: attr.confidence,
      since: attr.validFrom,
      id: attr.id,
    })),
  );
  const relations = d.relations.map((r) => ({
    type: r.type,
    direction: r.direction,
    other: clip(r.other, ALIAS_SHARE),
    mentions: r.mentions,
  }));
  // Room left for the lists: the head and the lists' own keys and counts are already spent.
  const frame = ctx.count(
    JSON.stringify({
      ...head,
      facts: [],
      facts_omitted: facts.length,
      relations: [],
      relations_omitted: d.relationCount,
      relations_total: d.relationCount,
    }),
  );
  const keptFacts = fitItems(facts, Math.max(0, Math.floor(maxTokens * FACTS_SHARE) - frame), ctx.count);
  const keptRelations = fitItems(relations, Math.max(0, maxTokens - frame - ctx.count(JSON.stringify(keptFacts.kept))), ctx.count);
  return JSON.stringify({
    ...head,
    facts: keptFacts.kept,
    ...(keptFacts.omitted > 0 ? { facts_omitted: keptFacts.omitted } : {}),
    relations: keptRelations.kept,
    // Left out by the budget or beyond the listed ones (the most mentioned are listed).
    ...(d.relationCount > keptRelations.kept.length ? { relations_omitted: d.relationCount - keptRelations.kept.length } : {}),
    relations_total: d.relationCount,
  });
}
