import { z } from 'zod/v3';
import { num, section } from '../settings/fields.js';
import type { RecallMemory } from '../types.js';

const memoryTypes = 'must be a list of memory types';
export const DEFAULT_PRIORITY_TYPES = ['procedural', 'preference'];

export const budgetSettings = section({
  tokenBudget: num({ int: true, min: 1 }, 'a positive integer or null')
    .nullable()
    .default(2_000)
    .describe('tokens of the selected results; null: no token budget'),
  limit: num({ int: true, min: 1 }).default(10).describe('results returned, at most maxLimit'),
  maxLimit: num({ int: true, min: 1 }).default(100).describe('the largest limit a request may ask for'),
  priorityTypes: z
    .array(z.string({ invalid_type_error: memoryTypes }), { invalid_type_error: memoryTypes })
    .default(DEFAULT_PRIORITY_TYPES)
    .describe('memory types that claim the token budget first'),
  preferenceSlots: num({ int: true, min: 0, max: 10 })
    .default(2)
    .describe(
      'memories of the priority types ranked below the top `limit` that still join the prompt when they match the question (similarity at least the median of the top `limit`), displacing the lowest plain results; 0: off',
    ),
});

export interface TokenBudgetOptions {
  limit: number;
  /** null: only the limit applies. */
  tokenBudget: number | null;
  countTokens: (text: string) => number;
  /** Memory types placed first with constraints (procedural memories first: how-to beats trivia). */
  priorityTypes?: readonly string[];
  /** Priority-type memories below the top `limit` that may still join when they match the question (0: none). */
  preferenceSlots?: number;
}

export interface TokenBudgetResult<T> {
  /** The chosen items in ranked order, each with its token count. */
  selected: Array<T & { tokens: number }>;
  /** The same items for the prompt: priority types and constraints first. */
  promptOrder: Array<T & { tokens: number }>;
  totalTokens: number;
  /** totalTokens / tokenBudget; 0 without a budget. */
  budgetUsed: number;
  /** Ids passed over because they did not fit the remaining budget (an answer says what it left out). */
  omittedForBudget: string[];
}

/**
 * The budget stage (pure): picks results for the prompt, highest score first within the budget. Priority types, constraints and pinned memories among the top
 * `limit` results claim the budget first, so a tight budget never drops them in favour of a
 * plain memory; so do up to `preferenceSlots` memories of the priority types from below the top
 * `limit` that match the question (matchingPreferences); the rest follow in ranked order, an item that would overflow is skipped and
 * smaller ones after it are still tried. Only the top `limit` are promoted: a constraint the
 * ranking put far down is not relevant to this query, and promoting it would push out results
 * that are. Stops at `limit`; never exceeds `tokenBudget`. Results keep their ranked order.
 */
export function applyTokenBudget<T extends { candidate: RecallMemory }>(
  ranked: readonly T[],
  options: TokenBudgetOptions,
): TokenBudgetResult<T> {
  const priorityTypes = new Set(options.priorityTypes ?? DEFAULT_PRIORITY_TYPES);
  const isPriority = (item: T) => item.candidate.isConstraint || item.candidate.pinned === true || priorityTypes.has(item.candidate.type);
  const head = ranked.slice(0, options.limit);
  const matching = matchingPreferences(ranked.slice(options.limit), head, priorityTypes, options.preferenceSlots ?? 0);
  const promoted = new Set([...head.filter(isPriority), ...matching]);
  const ordered = [...promoted, ...ranked.filter((item) => !promoted.has(item))];
  const rank = new Map(ranked.map((item, i) => [item, i]));

  const selected: Array<{ source: T; chosen: T & { tokens: number } }> = [];
  const omittedForBudget: string[] = [];
  let totalTokens = 0;
  for (const item of ordered) {
    if (selected.length >= options.limit) break;
    const tokens = options.countTokens(item.candidate.content);
    if (!Number.isFinite(tokens) || tokens < 0) {
      throw new Error(`countTokens returned ${tokens} for memory ${item.candidate.memoryId}; it must return a count >= 0`);
    }
    if (options.tokenBudget !== null && totalTokens + tokens > options.tokenBudget) {
      omittedForBudget.push(item.candidate.memoryId);
      continue;
    }
    selected.push({ source: item, chosen: { ...item, tokens } });
    totalTokens += tokens;
  }
  selected.sort((a, b) => rank.get(a.source)! - rank.get(b.source)!);
  return {
    selected: selected.map((s) => s.chosen),
    promptOrder: [...selected.filter((s) => promoted.has(s.source)), ...selected.filter((s) => !promoted.has(s.source))].map(
      (s) => s.chosen,
    ),
    totalTokens,
    budgetUsed: options.tokenBudget ? totalTokens / options.tokenBudget : 0,
    omittedForBudget,
  };
}

/**
 * Preferences and procedures first (the design's "always include procedural memories"): memories
 * of the priority types from below the top `limit` whose similarity to the question is at least
 * the median similarity of the top `limit` — as close to the question as what the prompt already
 * holds — best ranked first, at most `slots`. A memory without a similarity (no question vector)
 * never qualifies.
 */
export function matchingPreferences<T extends { candidate: RecallMemory }>(
  below: readonly T[],
  head: readonly T[],
  priorityTypes: ReadonlySet<string>,
  slots: number,
): T[] {
  if (slots <= 0 || below.length === 0) return [];
  const similarities = head
    .map((item) => item.candidate.similarity)
    .filter((s): s is number => typeof s === 'number' && Number.isFinite(s))
    .sort((a, b) => a - b);
  if (similarities.length === 0) return [];
  const floor = similarities[Math.floor((similarities.length - 1) / 2)]!;
  return below
    .filter((item) => priorityTypes.has(item.candidate.type) && (item.candidate.similarity ?? -Infinity) >= floor)
    .slice(0, slots);
}
