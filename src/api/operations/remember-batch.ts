import { isMnemographError, ValidationError } from '../../errors.js';
import { checkBatchSize, type BatchOutcome, type RememberInput, type RememberResult } from '../../write/index.js';
import type { Caller } from '../caller.js';
import { itemError, type ItemError } from '../item-error.js';
import type { RememberArgs } from './remember.js';

export interface BatchItemAnswer {
  index: number;
  result: RememberResult | null;
  error: ItemError | null;
}

/**
 * Stores many memories, one outcome per item, whatever the cause: an item naming a namespace the
 * key may not write is that item's FORBIDDEN, and an item carrying a transcript is refused (a
 * transcript is stored by remember, one session at a time). Only a batch over MAX_BATCH_SIZE is
 * refused whole, or, when the call names one namespace for every item (`call`), that namespace.
 */
export async function rememberBatch(
  caller: Caller,
  items: readonly RememberArgs[],
  call?: { namespace?: string | null },
): Promise<BatchItemAnswer[]> {
  checkBatchSize(items.length, caller.limits.maxBatchSize);
  const shared = call ? caller.namespaceFor(call.namespace, 'write') : null;
  const refused: BatchOutcome[] = [];
  const allowed: Array<{ index: number; input: RememberInput }> = [];
  for (const [index, input] of items.entries()) {
    try {
      if (input.transcript != null)
        throw new ValidationError('transcript is taken by remember only, one session at a time', { field: 'transcript' });
      allowed.push({ index, input: { ...input, namespace: shared ?? caller.namespaceFor(input.namespace, 'write') } });
    } catch (error) {
      if (!isMnemographError(error)) throw error;
      refused.push({ index, error });
    }
  }
  const stored = await caller.services.remember.rememberBatch(
    allowed.map((a) => a.input),
    { actor: caller.principal.name },
  );
  const outcomes = [...refused, ...stored.map((o) => ({ ...o, index: allowed[o.index]!.index }))].sort((a, b) => a.index - b.index);
  return outcomes.map((o) => ({
    index: o.index,
    result: o.result ?? null,
    error: o.error ? itemError(caller, o.error, { operation: 'rememberBatch', index: o.index }) : null,
  }));
}
