/** Answer shapes and clipping rules more than one tool shares. */
import type { CheckpointRecord, ItemOutcome, RememberInput, RememberResult, SessionRecord } from '../api/index.js';
import { clipText } from './budget.js';
import type { ToolContext } from './tool-context.js';

/** A clipped memory's content keeps at least this many tokens (timeline, get_memories). */
export const MIN_CONTENT_TOKENS = 10;
const BATCH_ERROR_TOKENS = 40;

export function round(n: number): number {
  return Math.round(n * 1_000) / 1_000;
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
export function rememberInput(args: RememberArgs, ctx: ToolContext): RememberInput {
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

/** What remember answers for a stored (or deduplicated) memory. */
export function rememberAnswer(result: RememberResult) {
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
export function batchRow(result: RememberResult) {
  return {
    id: result.memory.id,
    dedup: result.dedup.action,
    ...(result.dedup.existingId && result.dedup.existingId !== result.memory.id ? { existing_id: result.dedup.existingId } : {}),
    ...(result.redactions.length ? { redactions: result.redactions } : {}),
    ...(result.textCleanup.length ? { text_cleanup: result.textCleanup } : {}),
  };
}

/** An item's error with its message clipped, so one long message cannot crowd out the other outcomes. */
export function batchError(error: { code: string; message: string }, ctx: ToolContext) {
  return { code: error.code, message: clipText(error.message, BATCH_ERROR_TOKENS, ctx.count) };
}

/** Shares of the budget one name, description, fact… may take at most (never below MIN_FIELD_TOKENS). */
export const NAME_SHARE = 0.1;
export const DESCRIPTION_SHARE = 0.2;
export const LIST_OF_NAMES_SHARE = 0.1;
export const FACT_SHARE = 0.15;
export const ALIAS_SHARE = 0.03;
export const FACTS_SHARE = 0.75;
const MIN_FIELD_TOKENS = 8;

export type Clip = (text: string, share: number) => string;

/** Clips a field to its share of the budget, with "…" when cut. */
export function clipper(maxTokens: number, ctx: ToolContext): Clip {
  return (text, share) => clipText(text, Math.max(MIN_FIELD_TOKENS, Math.floor(maxTokens * share)), ctx.count);
}

/** Each item's outcome as the answer lists it: its row, or its error with the message clipped. */
export function clipOutcomes<R, V extends object>(
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

export const sessionView = (s: SessionRecord) => ({
  session_id: s.sessionId,
  status: s.status,
  prompts: s.prompts,
  tool_results: s.toolResults,
  checkpoints: s.checkpoints,
  last_checkpoint_at: s.lastCheckpointAt,
  ...(s.endReason ? { end_reason: s.endReason } : {}),
});

export const checkpointView = (c: CheckpointRecord | null | undefined) =>
  c ? { id: c.id, trigger: c.trigger, prompt_count: c.promptCount, created_at: c.createdAt } : null;
