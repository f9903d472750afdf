import { randomUUID } from 'node:crypto';
import type { Executor } from '../db/index.js';
import { findLiveByDedupKeys, memoriesByIds, recordEchoes, type MemoryRecord } from '../db/index.js';
import { dedupKey } from './dedup-key.js';
import { normalizeContent } from './normalize.js';

/**
 * No memory from memory: a remember (a captured tool result, an agent's note) whose text repeats
 * memories its namespace already holds — the `<memory>` block recall answered, the start of a
 * session's context, recalled contents quoted back line by line — is recognized before it is
 * stored. The repeated lines are taken out: what is left (a genuinely new fact in the same text)
 * goes on through the write path; when nothing is left nothing is stored, and the answer names
 * the memories it repeated. Each such remember is recorded (`memory.echo`), counted in
 * `pipelineStatus.echoes`.
 *
 * A line repeats a memory when, without the markup recall and the start context put around a
 * memory (a bullet, `[TYPE]`, an event day, `taught:`), its normalized form hashes to a live
 * memory of the namespace (the exact-dedup key). A text of one line, or one that is itself a
 * memory, is left to exact dedup.
 */

/** A line shorter than this (after its markup) is not taken for a memory: "ok", "done", a heading. */
export const MIN_ECHO_LINE_CHARS = 20;
/** What is left must hold at least this many letters or digits to be stored. */
const MIN_REMAINDER_WORD_CHARS = 12;
/** Lines of one text checked at most (a long text beyond them is kept as written). */
const MAX_LINES_CHECKED = 400;
/** Memory ids an answer and an event name at most. */
const MAX_IDS = 20;

// Markup recall's <memory> block and the start context put before a memory's text (one pass, linear):
// a bullet or list number, `[TYPE]` or `[type, pinned]`, an event day, a `taught:` label.
const LINE_MARKUP = /^\s*(?:[-*•>]\s+|\d{1,3}[.)]\s+)?(?:\[[A-Za-z_]{1,24}(?:, pinned)?\]\s+)?(?:\d{4}-\d{2}-\d{2}:\s+)?(?:taught:\s+)?/;
const BLOCK_TAG = /^\s*<\/?memory>\s*$/i;
const WORD_CHAR = /[\p{L}\p{N}]/gu;

export interface EchoInfo {
  /** Lines that repeated memories of the namespace (and were not stored). */
  lines: number;
  /** The memories they repeated (at most 20). */
  memoryIds: string[];
  /** Whether anything new was left to store. */
  stored: boolean;
}

export interface EchoPlan {
  /** The content to store instead (the new lines), or null when nothing new is left. */
  remainder: string | null;
  echo: EchoInfo;
}

interface Candidate {
  line: number;
  key: string;
}

/** The lines of a text that could repeat a memory, with their exact-dedup keys. */
export function echoCandidates(namespace: string, content: string): { lines: string[]; candidates: Candidate[] } {
  const lines = content.split('\n');
  const candidates: Candidate[] = [];
  lines.slice(0, MAX_LINES_CHECKED).forEach((raw, line) => {
    const text = raw.replace(LINE_MARKUP, '').trim();
    if (text.length < MIN_ECHO_LINE_CHARS) return;
    candidates.push({ line, key: dedupKey(namespace, normalizeContent(text).contentHash) });
  });
  return { lines, candidates };
}

/** What is left once the repeated lines (and, with them, the block tags) are taken out; null when nothing new is. */
export function remainderOf(lines: readonly string[], echoed: ReadonlySet<number>): string | null {
  const kept = lines.filter((line, i) => !echoed.has(i) && !BLOCK_TAG.test(line));
  const text = kept
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  return (text.match(WORD_CHAR)?.length ?? 0) >= MIN_REMAINDER_WORD_CHARS ? text : null;
}

/**
 * The echo plan of each text (by position; absent when it repeats nothing): one lookup of the
 * dedup keys of every candidate line of every text. A text of one line, or whose whole content
 * is a live memory, is not checked.
 */
export async function planEchoes(
  executor: Executor,
  items: ReadonlyArray<{ namespace: string; storageContent: string; contentHash: string }>,
): Promise<Map<number, EchoPlan>> {
  const parsed = items.map((item) =>
    item.storageContent.includes('\n')
      ? { ...echoCandidates(item.namespace, item.storageContent), whole: dedupKey(item.namespace, item.contentHash) }
      : null,
  );
  const keys = new Set<string>();
  for (const p of parsed) if (p && p.candidates.length > 0) for (const k of [p.whole, ...p.candidates.map((c) => c.key)]) keys.add(k);
  if (keys.size === 0) return new Map();
  const live = await findLiveByDedupKeys(executor, [...keys]);
  const plans = new Map<number, EchoPlan>();
  parsed.forEach((p, index) => {
    if (!p || live.has(p.whole)) return;
    const hits = p.candidates.filter((c) => live.has(c.key));
    if (hits.length === 0) return;
    const remainder = remainderOf(p.lines, new Set(hits.map((h) => h.line)));
    const memoryIds = [...new Set(hits.map((h) => live.get(h.key)!))].slice(0, MAX_IDS);
    plans.set(index, { remainder, echo: { lines: hits.length, memoryIds, stored: remainder !== null } });
  });
  return plans;
}

/** The memory an echo-only remember is answered with: the first one it repeated, as it stands. */
export async function echoedMemories(executor: Executor, ids: readonly string[]): Promise<Map<string, MemoryRecord>> {
  const records = await memoriesByIds(executor, [...new Set(ids)], null);
  return new Map(records.map((m) => [m.id, m]));
}

/** One `memory.echo` event per remember that repeated memories, about the first memory it repeated. */
export async function recordEchoPlans(executor: Executor, plans: ReadonlyArray<{ echo: EchoInfo; actor: string }>): Promise<void> {
  if (plans.length === 0) return;
  await recordEchoes(
    executor,
    plans.map((p) => ({
      id: randomUUID(),
      memoryId: p.echo.memoryIds[0]!,
      actor: p.actor,
      outcome: p.echo.stored ? 'trimmed' : 'skipped',
      details: { lines: p.echo.lines, memoryIds: p.echo.memoryIds },
    })),
    new Date().toISOString(),
  );
}
