import type { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { clipText, fitItems, fitList } from './budget.js';
import {
  ENTITY_TYPES,
  FACT_KINDS,
  type EntityDescription,
  assertFacts,
  createEntities,
  describeEntity,
  entities as entityPage,
  MAX_SEARCH_CHARS,
  relateAll,
  type ItemOutcome,
} from '../api/index.js';
import { runTool } from './errors.js';
import { maxTokens, namespace } from './schemas.js';
import type { ToolContext } from './tool-context.js';

const MAX_ITEMS_PER_CALL = 50;
/** Shares of the budget one name, description, fact… may take at most (never below MIN_FIELD_TOKENS). */
const NAME_SHARE = 0.1;
const DESCRIPTION_SHARE = 0.2;
const LIST_OF_NAMES_SHARE = 0.1;
const FACT_SHARE = 0.15;
const ALIAS_SHARE = 0.03;
const FACTS_SHARE = 0.75;
const MIN_FIELD_TOKENS = 8;

type Clip = (text: string, share: number) => string;

/** Clips a field to its share of the budget, with "…" when cut. */
function clipper(maxTokens: number, ctx: ToolContext): Clip {
  return (text, share) => clipText(text, Math.max(MIN_FIELD_TOKENS, Math.floor(maxTokens * share)), ctx.count);
}

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

/** get_entity, search_entities, create_entities, create_relations, add_observations. */
export function registerGraphTools(server: McpServer, ctx: ToolContext): void {
  server.registerTool(
    'get_entity',
    {
      description: 'An entity by name: its type, aspects with their active attributes (current facts), and relations to other entities.',
      inputSchema: z.object({ name: z.string(), namespace, max_tokens: maxTokens }),
      annotations: { readOnlyHint: true },
    },
    (args) =>
      runTool(ctx, 'get_entity', args.max_tokens, async (caller) => {
        return describeWithin(await describeEntity(caller, { namespace: args.namespace, name: args.name }), args.max_tokens, ctx);
      }),
  );

  server.registerTool(
    'search_entities',
    {
      description: 'Entities whose name contains the query (case-insensitive), most mentioned first; optionally of one type.',
      inputSchema: z.object({
        query: z.string().max(MAX_SEARCH_CHARS),
        namespace,
        type: z.enum([...ENTITY_TYPES, 'extracted']).optional(),
        limit: z.number().int().min(1).optional().describe('At most MAX_PAGE_SIZE (100 by default); more is LIMIT_EXCEEDED.'),
        max_tokens: maxTokens,
      }),
      annotations: { readOnlyHint: true },
    },
    (args) =>
      runTool(ctx, 'search_entities', args.max_tokens, async (caller) => {
        const page = await entityPage(caller, {
          namespace: args.namespace,
          search: args.query,
          type: args.type ?? null,
          first: args.limit ?? 20,
          firstField: 'limit',
        });
        const clip = clipper(args.max_tokens, ctx);
        const entities = page.edges.map(({ node }) => ({
          id: node.id,
          name: clip(node.name, NAME_SHARE),
          type: node.type,
          mentions: node.mentions,
        }));
        return fitList({ has_more: page.pageInfo.hasNextPage }, 'entities', entities, args.max_tokens, ctx.count);
      }),
  );

  server.registerTool(
    'create_entities',
    {
      description: `Create entities (people, organizations, places, projects, tools…) directly, no LLM. An existing name (case and spacing ignored) gets the given type and description. At most ${MAX_ITEMS_PER_CALL} per call.`,
      inputSchema: z.object({
        // Items are checked by the service, one outcome each: a bad type refuses its item, not the call.
        entities: z
          .array(
            z.object({
              name: z.string(),
              type: z
                .string()
                .optional()
                .describe(`One of ${ENTITY_TYPES.join(', ')}.`),
              description: z.string().optional(),
            }),
          )
          .min(1)
          .max(MAX_ITEMS_PER_CALL),
        namespace,
        max_tokens: maxTokens,
      }),
      annotations: { readOnlyHint: false, idempotentHint: true },
    },
    (args) =>
      runTool(ctx, 'create_entities', args.max_tokens, async (caller) => {
        const clip = clipper(args.max_tokens, ctx);
        const outcomes = await createEntities(caller, { namespace: args.namespace, entities: args.entities });
        const results = clipOutcomes(outcomes, clip, (r) => ({
          id: r.entity.id,
          name: clip(r.entity.name, NAME_SHARE),
          type: r.entity.type,
          created: r.created,
        }));
        return fitList({}, 'entities', results, args.max_tokens, ctx.count);
      }),
  );

  server.registerTool(
    'create_relations',
    {
      description: `Relate existing entities: source —type→ target, e.g. {"source":"Alice","type":"works_at","target":"Acme"}. Repeating a relation counts another mention. At most ${MAX_ITEMS_PER_CALL} per call.`,
      inputSchema: z.object({
        relations: z
          .array(
            z.object({ source: z.string(), type: z.string(), target: z.string(), confidence: z.number().optional().describe('0 to 1.') }),
          )
          .min(1)
          .max(MAX_ITEMS_PER_CALL),
        namespace,
        max_tokens: maxTokens,
      }),
      annotations: { readOnlyHint: false },
    },
    (args) =>
      runTool(ctx, 'create_relations', args.max_tokens, async (caller) => {
        const clip = clipper(args.max_tokens, ctx);
        const outcomes = await relateAll(caller, { namespace: args.namespace, relations: args.relations });
        const results = clipOutcomes(outcomes, clip, (row, index) => ({
          id: row.id,
          source: clip(args.relations[index]!.source, NAME_SHARE),
          type: clip(row.type, NAME_SHARE),
          target: clip(args.relations[index]!.target, NAME_SHARE),
          mentions: row.mentions,
        }));
        return fitList({}, 'relations', results, args.max_tokens, ctx.count);
      }),
  );

  server.registerTool(
    'add_observations',
    {
      description: `Add facts about existing entities, no LLM. Each goes under an aspect (default "facts"), through the same safety gate, contradiction check and supersession as extracted facts: a fact contradicting an active one (e.g. "likes X" vs "does not like X") supersedes it. kind "constraint" marks a decision that must always be recalled. At most ${MAX_ITEMS_PER_CALL} per call.`,
      inputSchema: z.object({
        observations: z
          .array(
            z.object({
              entity: z.string(),
              content: z.string(),
              aspect: z.string().optional(),
              kind: z
                .string()
                .optional()
                .describe(`One of ${FACT_KINDS.join(', ')}.`),
              confidence: z.number().optional().describe('0 to 1.'),
            }),
          )
          .min(1)
          .max(MAX_ITEMS_PER_CALL),
        namespace,
        max_tokens: maxTokens,
      }),
      annotations: { readOnlyHint: false, idempotentHint: true },
    },
    (args) =>
      runTool(ctx, 'add_observations', args.max_tokens, async (caller) => {
        const clip = clipper(args.max_tokens, ctx);
        const facts = args.observations.map((o) => ({ ...o, aspect: o.aspect ?? 'facts' }));
        const outcomes = await assertFacts(caller, { namespace: args.namespace, facts });
        const results = clipOutcomes(outcomes, clip, (r) => ({
          entity: clip(r.entity.name, NAME_SHARE),
          outcome: r.outcome,
          attribute_id: r.attribute?.id ?? null,
          memory_id: r.memory?.id ?? null,
          superseded: r.superseded,
        }));
        return fitList({}, 'observations', results, args.max_tokens, ctx.count);
      }),
  );
}

/** Each item's outcome as the answer lists it: its row, or its error with the message clipped. */
function clipOutcomes<R, V extends object>(
  outcomes: ReadonlyArray<ItemOutcome<R>>,
  clip: Clip,
  row: (result: R, index: number) => V,
): Array<{ index: number } & (V | { error: { code: string; message: string } })> {
  return outcomes.map((o) =>
    o.error
      ? { index: o.index, error: { code: o.error.code, message: clip(o.error.message, NAME_SHARE) } }
      : { index: o.index, ...row(o.result, o.index) },
  );
}
