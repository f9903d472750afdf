import { z } from 'zod';
import { type RecallFilterInput } from '../api/index.js';
import { DEFAULT_MAX_TOKENS, MAX_MAX_TOKENS, MIN_MAX_TOKENS } from './budget.js';

// TODO(write/index.ts): the one list is write/importance.ts's MEMORY_TYPES, not yet exported by write/'s index.
export const MEMORY_TYPES = ['episodic', 'semantic', 'procedural', 'working', 'fact', 'preference', 'decision', 'document_chunk'] as const;

/** Arguments every tool shares. */
export const namespace = z
  .string()
  .optional()
  .describe('Tenant scope; the server default when absent. Your API key decides which you may use.');
export const maxTokensWithDefault = (byDefault: number) =>
  z
    .number()
    .int()
    .min(MIN_MAX_TOKENS)
    .max(MAX_MAX_TOKENS)
    .default(byDefault)
    .describe(`Upper bound on the answer's size in tokens (default ${byDefault}).`);
export const maxTokens = maxTokensWithDefault(DEFAULT_MAX_TOKENS);

/** The most entities, relations or observations one graph tool call writes. */
export const MAX_ITEMS_PER_CALL = 50;

/** A graph tool's items: 1 to MAX_ITEMS_PER_CALL, each checked by the service (a bad item refuses itself, not the call). */
export const graphItems = <T extends z.ZodType>(item: T) => z.array(item).min(1).max(MAX_ITEMS_PER_CALL);

/** The session tools' session id. */
export const sessionId = z.string().min(1).max(256).describe("The session id session_start answered (or the harness's own).");

/** recall's and search's filters, as GraphQL's RecallFilters (a filter never hides a match: src/recall/scope.ts). */
export const filters = z
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

/** The tool's filters under the names src/api takes (which maps them for the recall service). */
export function filterInput(f: z.infer<typeof filters>): RecallFilterInput | null {
  if (!f) return null;
  return {
    sessionId: f.session_id,
    types: f.types,
    tags: f.tags,
    occurredAfter: f.occurred_after,
    occurredBefore: f.occurred_before,
    minImportance: f.min_importance,
    includeSuperseded: f.include_superseded,
    includeDeleted: f.include_deleted,
    includeCompressed: f.include_compressed,
  };
}
