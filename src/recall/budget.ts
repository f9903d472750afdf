import { DEFAULT_PRIORITY_TYPES } from './config.js';
import type { RecallMemory } from './types.js';

export interface TokenBudgetOptions {
  limit: number;
  /** null: only the limit applies. */
  tokenBudget: number | null;
  countTokens: (text: string) => number;
  /** Memory types placed first with constraints (seed 002: procedural memories first). */
  priorityTypes?: readonly string[];
}

export interface TokenBudgetResult<T> {
  /** The chosen items, each with its token count. */
  selected: Array<T & { tokens: number }>;
  totalTokens: number;
  /** totalTokens / tokenBudget; 0 without a budget. */
  budgetUsed: number;
  /** Ids passed over because they did not fit the remaining budget (seed 003: say what was left out). */
  omittedForBudget: string[];
}

/**
 * Picks results for the prompt (seed 002 §2.6): priority types and constraints first, then the
 * rest, each group in the given (ranked) order; an item that would overflow the budget is skipped
 * and smaller ones after it are still tried. Stops at `limit`; never exceeds `tokenBudget`.
 */
export function applyTokenBudget<T extends { candidate: RecallMemory }>(
  ranked: readonly T[],
  options: TokenBudgetOptions,
): TokenBudgetResult<T> {
  const priorityTypes = new Set(options.priorityTypes ?? DEFAULT_PRIORITY_TYPES);
  const isPriority = (item: T) => item.candidate.isConstraint || priorityTypes.has(item.candidate.type);
  const ordered = [...ranked.filter(isPriority), ...ranked.filter((item) => !isPriority(item))];

  const selected: Array<T & { tokens: number }> = [];
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
    selected.push({ ...item, tokens });
    totalTokens += tokens;
  }
  return {
    selected,
    totalTokens,
    budgetUsed: options.tokenBudget ? totalTokens / options.tokenBudget : 0,
    omittedForBudget,
  };
}
