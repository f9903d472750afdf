import type { Executor } from '../../db/index.js';
import { sessionNeighbourRows } from '../../db/index.js';

/**
 * The memories just before and after each anchor in its session (db/search/context.ts): in a
 * conversation the answer often sits one turn away from the words that match the question.
 */
export async function sessionNeighbours(
  executor: Executor,
  anchorIds: string[],
  window: number,
): Promise<Array<{ anchorId: string; memoryId: string }>> {
  if (anchorIds.length === 0 || window < 1) return [];
  return sessionNeighbourRows(executor, anchorIds, window);
}
