import type { MergeOutcome } from '../../knowledge/index.js';
import type { Caller } from '../caller.js';

/** Folds the entity `merge` into `keep` (both by name). */
export async function mergeEntities(
  caller: Caller,
  request: { namespace?: string | null; keep: string; merge: string },
): Promise<MergeOutcome> {
  const who = { namespace: caller.namespaceFor(request.namespace, 'write'), actor: caller.principal.name };
  const outcome = await caller.services.knowledge.mergeEntities(who, request);
  caller.loaders.entityById.clear(outcome.entity.id).prime(outcome.entity.id, outcome.entity);
  return outcome;
}
