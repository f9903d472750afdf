import type { ItemOutcome as Outcome } from '../errors.js';
import type { Caller } from './caller.js';
import { itemError, type ItemError } from './item-error.js';

export type ItemOutcome<R> = Outcome<R, ItemError>;

/**
 * Items one after the other, one outcome per item with its index: an item's own failure, whatever
 * the cause (bad name, missing entity, a conflict, the database), is reported in its place and the
 * others still run. Only the call's own checks (arguments, namespace) refuse it whole.
 */
export async function eachItem<T, R>(
  caller: Caller,
  operation: string,
  items: readonly T[],
  work: (item: T) => Promise<R>,
): Promise<Array<ItemOutcome<R>>> {
  const out: Array<ItemOutcome<R>> = [];
  for (const [index, item] of items.entries()) {
    try {
      out.push({ index, result: await work(item) });
    } catch (error) {
      out.push({ index, error: itemError(caller, error, { operation, index }) });
    }
  }
  return out;
}
