import type { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { clipText, fitItems, fitList } from './budget.js';
import {
  type RememberInput,
  type RememberResult,
  forget,
  limitsOf,
  memories,
  recall,
  remember,
  rememberBatch,
  search,
  timeline,
} from '../api/index.js';
import { runTool } from './errors.js';
import { maxTokens, maxTokensWithDefault, namespace } from './schemas.js';
import type { ToolContext } from './tool-context.js';

const MEMORY_TYPES = ['episodic', 'semantic', 'procedural', 'working', 'fact', 'preference', 'decision', 'document_chunk'] as const;
const MAX_IDS = 50;
const MAX_BATCH_ITEMS = 50;
/** remember_batch's default answer budget: room for all 50 outcomes (about 40 tokens each), errors included. */
const BATCH_MAX_TOKENS = 4_000;
const BATCH_ERROR_TOKENS = 40;
const MIN_CONTENT_TOKENS = 10;

/** recall's and search's filters, as GraphQL's RecallFilters (a filter never hides a match: src/recall/scope.ts). */
const filters = z
  .object({
    session_id: z.string().optional().describe("Only this session's memories."),
    types: z.array(z.enum(MEMORY_TYPES)).max(MEMORY_TYPES.length).optional(),
    tags: z.array(z.string()).max(50).optional().describe('Memories carrying all of these tags.'),
    occurred_after: z.string().datetime({ offset: true }).optional().describe('Event time (else record time) at or after (ISO 8601).'),
    occurred_before: z.string().datetime({ offset: true }).optional().describe('Event time (else record time) at or before (ISO 8601).'),
    min_importance: z.number().min(0).max(1).optional(),
    include_superseded: z.boolean().optional(),
    include_deleted: z.boolean().optional(),
    include_compressed: z.boolean().optional(),
  })
  .optional()
  .describe('Only the memories that pass all of these.');

type ToolFilters = z.infer<typeof filters>;

/** The tool's filters as the recall service takes them. */
function recallFilters(f: ToolFilters) {
  if (!f) return null;
  return {
    sessionId: f.session_id ?? null,
    types: f.types ?? null,
    tags: f.tags ?? null,
    occurredAfter: f.occurred_after ?? null,
    occurredBefore: f.occurred_before ?? null,
    minImportance: f.min_importance ?? null,
    includeSuperseded: f.include_superseded ?? null,
    includeDeleted: f.include_deleted ?? null,
    includeCompressed: f.include_compressed ?? null,
  };
}

/** remember, remember_batch, recall, search → timeline → get_memories (progressive disclosure), forget. */
export function registerMemoryTools(server: McpServer, ctx: ToolContext): void {
  const limits = limitsOf(ctx.services);

  server.registerTool(
    'remember',
    {
      description:
        'Store a memory (a fact, preference, decision, event or note). Synchronous, no LLM: redacted, deduplicated, embedded and linked to entities. Returns its id.',
      inputSchema: z.object({
        content: z.string().describe('The text to remember.'),
        namespace,
        type: z.enum(MEMORY_TYPES).optional().describe('Classified from the content when absent.'),
        tags: z.array(z.string()).max(50).optional(),
        source: z.string().optional(),
        session_id: z.string().optional(),
        occurred_at: z.string().datetime({ offset: true }).optional().describe('When it happened (ISO 8601).'),
        max_tokens: maxTokens,
      }),
      annotations: { readOnlyHint: false, idempotentHint: true },
    },
    (args) =>
      runTool(ctx, 'remember', args.max_tokens, async (caller) => {
        // A memory of an open session is one of its tool results (src/sessions); an unknown session is left alone.
        const result = await remember(caller, { ...rememberInput(args, ctx), namespace: args.namespace });
        // Up to 50 tags: they get a quarter of the budget, the id and outcome always fit.
        const tags = fitItems(result.tags, Math.floor(args.max_tokens / 4), ctx.count);
        return JSON.stringify({ ...rememberAnswer(result), tags: tags.kept, ...(tags.omitted > 0 ? { tags_omitted: tags.omitted } : {}) });
      }),
  );

  server.registerTool(
    'remember_batch',
    {
      description: `Store several memories at once (at most ${MAX_BATCH_ITEMS}), e.g. the turns of a conversation in order. One outcome per item, with its index: the items that can be stored are stored (id and dedup action), the others carry an error code.`,
      inputSchema: z.object({
        // Item fields are checked by the service, one outcome each: a bad type or date refuses its item, not the call.
        memories: z
          .array(
            z.object({
              content: z.string(),
              type: z
                .string()
                .optional()
                .describe(`One of ${MEMORY_TYPES.join(', ')}; classified from the content when absent.`),
              tags: z.array(z.string()).max(50).optional(),
              source: z.string().optional(),
              session_id: z.string().optional(),
              occurred_at: z.string().optional().describe('When it happened (ISO 8601).'),
            }),
          )
          .min(1)
          .max(MAX_BATCH_ITEMS),
        namespace,
        max_tokens: maxTokensWithDefault(BATCH_MAX_TOKENS),
      }),
      annotations: { readOnlyHint: false, idempotentHint: true },
    },
    (args) =>
      runTool(ctx, 'remember_batch', args.max_tokens, async (caller) => {
        // One namespace for the whole call: a key that may not write it is refused the call.
        const outcomes = await rememberBatch(
          caller,
          args.memories.map((m) => rememberInput(m, ctx)),
          { namespace: args.namespace },
        );
        // Compact rows (what is empty or known is left out), so 50 outcomes fit the default budget.
        const items = outcomes.map((o) =>
          o.result ? { index: o.index, ...batchRow(o.result) } : { index: o.index, error: batchError(o.error!, ctx) },
        );
        return fitList({}, 'memories', items, args.max_tokens, ctx.count);
      }),
  );

  server.registerTool(
    'recall',
    {
      description:
        'Recall what is relevant to a query: a <memory> block ready for the prompt, plus the ids and scores of the memories in it, within max_tokens.',
      inputSchema: z.object({
        query: z.string(),
        namespace,
        limit: z.number().int().min(1).optional().describe(`At most ${limits.maxRecallLimit} (default 10).`),
        filters,
        as_of: z.string().datetime({ offset: true }).optional().describe('The time the question is asked (default now).'),
        max_tokens: maxTokens,
      }),
      annotations: { readOnlyHint: true },
    },
    (args) =>
      runTool(ctx, 'recall', args.max_tokens, async (caller) => {
        const budget = args.max_tokens;
        // The memories get the budget less room for the ids list that follows them; that list
        // always has room for its empty form, so the answer ends in valid JSON.
        const outcome = await recall(caller, {
          query: args.query,
          namespace: args.namespace,
          limit: args.limit ?? 10,
          tokenBudget: Math.max(1, Math.floor(budget * 0.8)),
          filters: recallFilters(args.filters),
          asOf: args.as_of ?? null,
        });
        const ids = outcome.items.map((item) => ({ id: item.memory.id, type: item.memory.type, score: round(item.score) }));
        const emptyList = ctx.count(JSON.stringify({ memories: [], omitted: ids.length }));
        const prompt = clipText(outcome.prompt, Math.max(0, Math.min(Math.floor(budget * 0.8), budget - emptyList - 2)), ctx.count);
        const list = fitList({}, 'memories', ids, budget - ctx.count(prompt) - 2, ctx.count);
        return `${prompt}\n${list}`;
      }),
  );

  server.registerTool(
    'search',
    {
      description:
        'Step 1 of progressive disclosure: a compact index of matching memories (id, title, type, date, score, token estimate). Cheap; then call timeline for context or get_memories for full text.',
      inputSchema: z.object({
        query: z.string(),
        namespace,
        limit: z.number().int().min(1).max(100).optional(),
        offset: z.number().int().min(0).optional(),
        filters,
        max_tokens: maxTokens,
      }),
      annotations: { readOnlyHint: true },
    },
    (args) =>
      runTool(ctx, 'search', args.max_tokens, async (caller) => {
        const result = await search(caller, {
          query: args.query,
          namespace: args.namespace,
          limit: args.limit ?? 20,
          offset: args.offset ?? 0,
          filters: recallFilters(args.filters),
        });
        const hits = result.hits.map((h) => ({
          id: h.id,
          title: h.title,
          type: h.type,
          occurred_at: h.occurredAt ?? h.createdAt,
          score: round(h.score),
          tokens: h.tokenEstimate,
        }));
        return fitList({ offset: result.offset, has_more: result.hasMore }, 'hits', hits, args.max_tokens, ctx.count);
      }),
  );

  server.registerTool(
    'timeline',
    {
      description:
        'Step 2 of progressive disclosure: the memories just before and after an anchor (an id from search, or the best match of a query), in time order.',
      inputSchema: z.object({
        anchor: z.string().optional().describe('A memory id.'),
        query: z.string().optional().describe('Used when no anchor is given.'),
        namespace,
        before: z.number().int().min(0).max(50).optional(),
        after: z.number().int().min(0).max(50).optional(),
        max_tokens: maxTokens,
      }),
      annotations: { readOnlyHint: true },
    },
    (args) =>
      runTool(ctx, 'timeline', args.max_tokens, async (caller) => {
        const t = await timeline(caller, {
          namespace: args.namespace,
          anchor: args.anchor ?? null,
          query: args.query ?? null,
          before: args.before ?? 5,
          after: args.after ?? 5,
        });
        // A third of the budget at most per memory, so the anchor and its nearest neighbours fit.
        const share = Math.floor(args.max_tokens / 3);
        const line = (m: { id: string; type: string; content: string; occurredAt: string | null; createdAt: string }, position: string) => {
          const row = { position, id: m.id, type: m.type, at: m.occurredAt ?? m.createdAt, content: '' };
          const room = Math.max(MIN_CONTENT_TOKENS, share - ctx.count(JSON.stringify(row)) - 2);
          return { ...row, content: clipText(m.content, room, ctx.count) };
        };
        // Closest to the anchor first, so a tight budget keeps the nearest context.
        const rows = t.anchor
          ? [
              line(t.anchor, 'anchor'),
              ...interleave(
                t.before
                  .slice()
                  .reverse()
                  .map((m) => line(m, 'before')),
                t.after.map((m) => line(m, 'after')),
              ),
            ]
          : [];
        return fitList({}, 'memories', rows, args.max_tokens, ctx.count);
      }),
  );

  server.registerTool(
    'get_memories',
    {
      description: `Step 3 of progressive disclosure: full records of memories by id (at most ${MAX_IDS}), in the order asked. Ids you may not read are reported as not found.`,
      inputSchema: z.object({ ids: z.array(z.string()).min(1).max(MAX_IDS), max_tokens: maxTokens }),
      annotations: { readOnlyHint: true },
    },
    (args) =>
      runTool(ctx, 'get_memories', args.max_tokens, async (caller) => {
        const found = await memories(caller, args.ids);
        // Each record gets an equal share; its content is clipped to what the other fields leave of it.
        const share = Math.floor(args.max_tokens / args.ids.length);
        const records = args.ids.map((id, i) => {
          const m = found[i];
          if (!m) return { id, error: 'NOT_FOUND' };
          const record = {
            id,
            type: m.type,
            at: m.occurredAt ?? m.createdAt,
            tags: m.tags,
            content: '',
            ...(m.deletedAt ? { forgotten: true } : {}),
          };
          const room = Math.max(MIN_CONTENT_TOKENS, share - ctx.count(JSON.stringify(record)) - 2);
          return { ...record, content: clipText(m.content, room, ctx.count) };
        });
        return fitList({}, 'memories', records, args.max_tokens, ctx.count);
      }),
  );

  server.registerTool(
    'forget',
    {
      description:
        'Forget a memory by id (a soft delete, recorded in its history): it leaves recall and search. Forgetting twice changes nothing.',
      inputSchema: z.object({ id: z.string(), reason: z.string().optional(), max_tokens: maxTokens }),
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true },
    },
    (args) =>
      runTool(ctx, 'forget', args.max_tokens, async (caller) => {
        const forgotten = await forget(caller, { id: args.id, reason: args.reason });
        return JSON.stringify({ id: forgotten.id, forgotten_at: forgotten.deletedAt });
      }),
  );
}

interface RememberArgs {
  content: string;
  type?: string;
  tags?: string[];
  source?: string;
  session_id?: string;
  occurred_at?: string;
}

/** A tool's memory arguments as the write path takes them; the caller's key name is its `who`. */
function rememberInput(args: RememberArgs, ctx: ToolContext): RememberInput {
  return {
    content: args.content,
    type: args.type ?? null,
    tags: args.tags ?? null,
    source: args.source ?? null,
    sessionId: args.session_id ?? null,
    occurredAt: args.occurred_at ?? null,
    who: ctx.principal.name,
  };
}

/** What remember and remember_batch answer for a stored (or deduplicated) memory. */
function rememberAnswer(result: RememberResult) {
  return {
    id: result.memory.id,
    dedup: result.dedup.action,
    existing_id: result.dedup.existingId,
    type: result.memory.type,
    importance: result.importance,
    redactions: result.redactions,
    text_cleanup: result.textCleanup,
    ...(result.echo ? { echo: { lines: result.echo.lines, memory_ids: result.echo.memoryIds, stored: result.echo.stored } } : {}),
  };
}

/** A stored memory's row in remember_batch's answer: id and outcome, the rest only when it says something. */
function batchRow(result: RememberResult) {
  return {
    id: result.memory.id,
    dedup: result.dedup.action,
    ...(result.dedup.existingId && result.dedup.existingId !== result.memory.id ? { existing_id: result.dedup.existingId } : {}),
    ...(result.redactions.length ? { redactions: result.redactions } : {}),
    ...(result.textCleanup.length ? { text_cleanup: result.textCleanup } : {}),
  };
}

/** An item's error with its message clipped, so one long message cannot crowd out the other outcomes. */
function batchError(error: { code: string; message: string }, ctx: ToolContext) {
  return { code: error.code, message: clipText(error.message, BATCH_ERROR_TOKENS, ctx.count) };
}

function interleave<T>(a: T[], b: T[]): T[] {
  const out: T[] = [];
  for (let i = 0; i < Math.max(a.length, b.length); i += 1) {
    if (i < a.length) out.push(a[i]!);
    if (i < b.length) out.push(b[i]!);
  }
  return out;
}

function round(n: number): number {
  return Math.round(n * 1_000) / 1_000;
}
