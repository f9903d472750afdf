import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { canonicalSearch, entitiesPage } from '../db/queries/entity-page.js';
import { isMnemographError } from '../errors.js';
import { describeEntity, ENTITY_TYPES, FACT_KINDS } from '../knowledge/index.js';
import { fitList } from './budget.js';
import { guarded, toolText } from './errors.js';
import { maxTokens, namespace } from './schemas.js';
import type { ToolContext } from './tool-context.js';

const MAX_ITEMS_PER_CALL = 50;
const MAX_SEARCH_CHARS = 200;

/** get_entity, search_entities, create_entities, create_relations, add_observations. */
export function registerGraphTools(server: McpServer, ctx: ToolContext): void {
  const { services } = ctx;

  server.registerTool(
    'get_entity',
    {
      description: 'An entity by name: its type, aspects with their active attributes (current facts), and relations to other entities.',
      inputSchema: { name: z.string(), namespace, max_tokens: maxTokens },
      annotations: { readOnlyHint: true },
    },
    (args) =>
      guarded(ctx.logger, async () => {
        const ns = ctx.namespaceFor(args.namespace, 'read');
        const d = await describeEntity(services.executor, ns, args.name);
        const facts = d.aspects.flatMap((a) => a.attributes.map((attr) => ({ aspect: a.name, content: attr.content, kind: attr.kind, confidence: attr.confidence, since: attr.validFrom, id: attr.id })));
        const relations = d.relations.map((r) => ({ type: r.type, direction: r.direction, other: r.other, mentions: r.mentions }));
        const { entity } = d;
        const head = { id: entity.id, name: entity.name, type: entity.type, description: entity.description, aliases: entity.aliases, mentions: entity.mentions, aspects: d.aspects.map((a) => a.name) };
        // Facts and relations share the budget: relations get what the facts leave, at least a quarter.
        const factsText = fitList(head, 'facts', facts, Math.floor(args.max_tokens * 0.75), ctx.count);
        const base = JSON.parse(factsText) as Record<string, unknown>;
        return toolText(fitList(base, 'relations', relations, args.max_tokens, ctx.count));
      }),
  );

  server.registerTool(
    'search_entities',
    {
      description: 'Entities whose name contains the query (case-insensitive), most mentioned first; optionally of one type.',
      inputSchema: { query: z.string().max(MAX_SEARCH_CHARS), namespace, type: z.enum([...ENTITY_TYPES, 'extracted']).optional(), limit: z.number().int().min(1).max(100).optional(), max_tokens: maxTokens },
      annotations: { readOnlyHint: true },
    },
    (args) =>
      guarded(ctx.logger, async () => {
        const ns = ctx.namespaceFor(args.namespace, 'read');
        const page = await entitiesPage(services.executor, { namespace: ns, search: canonicalSearch(args.query), type: args.type ?? null, first: Math.min(args.limit ?? 20, services.config.MAX_PAGE_SIZE) });
        const entities = page.edges.map(({ node }) => ({ id: node.id, name: node.name, type: node.type, mentions: node.mentions }));
        return toolText(fitList({ has_more: page.pageInfo.hasNextPage }, 'entities', entities, args.max_tokens, ctx.count));
      }),
  );

  server.registerTool(
    'create_entities',
    {
      description: `Create entities (people, organizations, places, projects, tools…) directly, no LLM. An existing name (case and spacing ignored) gets the given type and description. At most ${MAX_ITEMS_PER_CALL} per call.`,
      inputSchema: {
        entities: z.array(z.object({ name: z.string(), type: z.enum(ENTITY_TYPES).optional(), description: z.string().optional() })).min(1).max(MAX_ITEMS_PER_CALL),
        namespace,
      },
      annotations: { readOnlyHint: false, idempotentHint: true },
    },
    (args) =>
      guarded(ctx.logger, async () => {
        const who = { namespace: ctx.namespaceFor(args.namespace, 'write'), actor: ctx.principal.name };
        const results = await eachItem(args.entities, async (e) => {
          const r = await services.knowledge.createEntity(who, e);
          return { id: r.entity.id, name: r.entity.name, type: r.entity.type, created: r.created };
        });
        return toolText(JSON.stringify({ entities: results }));
      }),
  );

  server.registerTool(
    'create_relations',
    {
      description: `Relate existing entities: source —type→ target, e.g. {"source":"Alice","type":"works_at","target":"Acme"}. Repeating a relation counts another mention. At most ${MAX_ITEMS_PER_CALL} per call.`,
      inputSchema: {
        relations: z.array(z.object({ source: z.string(), type: z.string(), target: z.string(), confidence: z.number().min(0).max(1).optional() })).min(1).max(MAX_ITEMS_PER_CALL),
        namespace,
      },
      annotations: { readOnlyHint: false },
    },
    (args) =>
      guarded(ctx.logger, async () => {
        const who = { namespace: ctx.namespaceFor(args.namespace, 'write'), actor: ctx.principal.name };
        const results = await eachItem(args.relations, async (r) => {
          const row = await services.knowledge.relate(who, r);
          return { id: row.id, source: r.source, type: row.type, target: r.target, mentions: row.mentions };
        });
        return toolText(JSON.stringify({ relations: results }));
      }),
  );

  server.registerTool(
    'add_observations',
    {
      description: `Add facts about existing entities, no LLM. Each goes under an aspect (default "facts"), through the same safety gate, contradiction check and supersession as extracted facts: a fact contradicting an active one (e.g. "likes X" vs "does not like X") supersedes it. kind "constraint" marks a decision that must always be recalled. At most ${MAX_ITEMS_PER_CALL} per call.`,
      inputSchema: {
        observations: z
          .array(z.object({ entity: z.string(), content: z.string(), aspect: z.string().optional(), kind: z.enum(FACT_KINDS).optional(), confidence: z.number().min(0).max(1).optional() }))
          .min(1)
          .max(MAX_ITEMS_PER_CALL),
        namespace,
      },
      annotations: { readOnlyHint: false, idempotentHint: true },
    },
    (args) =>
      guarded(ctx.logger, async () => {
        const who = { namespace: ctx.namespaceFor(args.namespace, 'write'), actor: ctx.principal.name };
        const results = await eachItem(args.observations, async (o) => {
          const r = await services.knowledge.assertFact(who, { ...o, aspect: o.aspect ?? 'facts' });
          return { entity: r.entity.name, outcome: r.outcome, attribute_id: r.attribute?.id ?? null, memory_id: r.memory?.id ?? null, superseded: r.superseded };
        });
        return toolText(JSON.stringify({ observations: results }));
      }),
  );
}

/**
 * Items one after the other; an item's own failure (bad name, missing entity) is reported in
 * its place and the others still run. Authorization failures stop the whole call.
 */
async function eachItem<T, R>(items: readonly T[], work: (item: T) => Promise<R>): Promise<Array<R | { error: { code: string; message: string } }>> {
  const out: Array<R | { error: { code: string; message: string } }> = [];
  for (const item of items) {
    try {
      out.push(await work(item));
    } catch (error) {
      if (!isMnemographError(error) || error.code === 'INTERNAL' || error.code === 'UNAVAILABLE') throw error;
      out.push({ error: { code: error.code, message: error.message } });
    }
  }
  return out;
}
